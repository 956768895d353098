import { describe, expect, it } from 'vitest';
import type { Observation } from '../agent.js';
import { followUpNote, takeoverPrompt } from './prompt.js';

const observation: Observation = {
  runId: 'run-1',
  deadline: Number.MAX_SAFE_INTEGER,
  task: 'Register patient Alan Turing in the intake form',
  params: { firstName: 'Alan', password: '********' },
  screenshot: Buffer.alloc(0),
  url: 'http://127.0.0.1:4000/intake',
  viewport: { width: 1280, height: 800 },
  history: [
    { action: { type: 'click', x: 300, y: 120, button: 'left' }, intent: 'Fill "First name"', kind: 'cached' },
    { action: { type: 'type', text: 'Alan' }, intent: 'Fill "First name"', kind: 'cached' },
  ],
  tools: [],
  divergence: { step: 2, intent: 'Fill "Last name"', reason: 'target is now "Stay signed in" (button), expected "Last name" (textbox)' },
};

describe('takeoverPrompt', () => {
  it('holds the task, the parameters, the steps done with their intents, the divergence and the instruction to finish', () => {
    const prompt = takeoverPrompt(observation);
    expect(prompt).toContain('Task: Register patient Alan Turing in the intake form');
    expect(prompt).toContain('- firstName: "Alan"');
    expect(prompt).toContain('- password: "********"');
    expect(prompt).toContain('1. {"type":"click","x":300,"y":120,"button":"left"} replayed: Fill "First name"');
    expect(prompt).toContain('2. {"type":"type","text":"Alan"} replayed: Fill "First name"');
    expect(prompt).toContain('step 3 (expected: "Fill "Last name"")');
    expect(prompt).toContain('target is now "Stay signed in" (button)');
    expect(prompt).toContain('Finish the task from the current screen');
  });

  it('says so on a miss', () => {
    const prompt = takeoverPrompt({ ...observation, history: [], divergence: undefined } as Observation);
    expect(prompt).toContain('No step has been done yet');
    expect(prompt).toContain('no recording of this task');
  });
});

describe('followUpNote', () => {
  it('is silent when only the model\'s own actions were done', () => {
    const own: Observation = { ...observation, divergence: undefined, history: [...observation.history, { action: { type: 'wait', ms: 1000 }, kind: 'agent' }] } as Observation;
    expect(followUpNote(own, 2, 1)).toBeUndefined();
  });

  it('lists what rote replayed since and the new divergence', () => {
    const note = followUpNote(observation, 1, 1)!;
    expect(note).toContain('Since your last answer, these steps were done (1):');
    expect(note).toContain('2. {"type":"type","text":"Alan"} replayed: Fill "First name"');
    expect(note).toContain('cannot be done safely on this screen');
  });
});
