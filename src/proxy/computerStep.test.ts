import { describe, expect, it } from 'vitest';
import { templateAction } from './computerActions.js';
import { chooseStep, valueHash, type ComputerNode, type ComputerStep } from './computerStep.js';
import { cropBoxAt, cropPng, type Screenshot } from '../checks/screenshotCrop.js';

/** A screen whose every region is its own (a gradient), so no crop of it shows elsewhere; `shade` shifts its colours. */
function plainScreen(shade = 0): Screenshot {
  const pixels = Buffer.alloc(400 * 200 * 4, 0xff);
  for (let y = 0; y < 200; y++) {
    for (let x = 0; x < 400; x++) {
      const at = (y * 400 + x) * 4;
      pixels[at] = (x + shade) & 0xff;
      pixels[at + 1] = y;
      pixels[at + 2] = (x >> 8) * 100;
    }
  }
  return { width: 400, height: 200, pixels };
}

async function clickStep(screen: Screenshot, extra: Partial<ComputerStep>): Promise<ComputerStep> {
  const box = cropBoxAt(screen, { x: 100, y: 100 });
  return { action: { type: 'click', button: 'left', x: 100, y: 100 }, screen: { width: 400, height: 200 }, crop: { box, png: (await cropPng(screen, box)).toString('base64') }, masks: [], pendingSafetyChecks: 0, completed: true, values: { plan: valueHash('Pro') }, untyped: [], ...extra };
}

const node = (...steps: ComputerStep[]): ComputerNode => ({ model: 'computer-use-preview', steps, usage: { promptTokens: 10, completionTokens: 2 } });

describe('which stored computer step a screenshot may be served', () => {
  it('serves a click whose crop matches', async () => {
    const choice = await chooseStep(node(await clickStep(plainScreen(), {})), { screen: plainScreen(), masks: [] }, new Map([['plan', 'Team']]));
    expect(choice).toMatchObject({ kind: 'serve', action: { type: 'click', x: 100 } });
  });

  it('serves no click of a path that never types a value (clicks chose it) when the value is another', async () => {
    const step = await clickStep(plainScreen(), { untyped: ['plan'] });
    expect(await chooseStep(node(step), { screen: plainScreen(), masks: [] }, new Map([['plan', 'Team']]))).toMatchObject({ kind: 'miss', reason: expect.stringContaining('parameter "plan" is never typed on the recorded path') });
    expect(await chooseStep(node(step), { screen: plainScreen(), masks: [] }, new Map([['plan', 'Pro']]))).toMatchObject({ kind: 'serve' });
  });

  it('serves nothing on a path not yet followed to its end, nor a step with a safety check', async () => {
    expect(await chooseStep(node(await clickStep(plainScreen(), { completed: false })), { screen: plainScreen(), masks: [] }, new Map())).toMatchObject({ kind: 'miss', reason: expect.stringContaining('no path followed to its end') });
    expect(await chooseStep(node(await clickStep(plainScreen(), { pendingSafetyChecks: 1 })), { screen: plainScreen(), masks: [] }, new Map())).toMatchObject({ kind: 'miss', reason: expect.stringContaining('safety check') });
  });

  it('does not choose between two different actions that both pass', async () => {
    const other = { ...(await clickStep(plainScreen(), {})), action: { type: 'click', button: 'left', x: 101, y: 100 } };
    expect(await chooseStep(node(await clickStep(plainScreen(), {}), other), { screen: plainScreen(), masks: [] }, new Map())).toMatchObject({ kind: 'miss', reason: expect.stringContaining('nothing recorded tells them apart') });
    // One whose crop no longer matches is not a rival.
    expect(await chooseStep(node(await clickStep(plainScreen(0x60), {}), other), { screen: plainScreen(), masks: [] }, new Map())).toMatchObject({ kind: 'serve', action: { x: 101 } });
  });

  it('sends keys only where they went when recorded, and a screenshot of the recorded size', async () => {
    const typed = templateAction({ type: 'type', text: 'Ada' }, new Map([['first', 'Ada']]));
    const step = { ...(await clickStep(plainScreen(), {})), action: typed.ok ? typed.value.template : { type: 'type' }, focus: { x: 100, y: 100 } };
    expect(await chooseStep(node(step), { screen: plainScreen(), focus: { x: 100, y: 100 }, masks: [] }, new Map([['first', 'Jo']]))).toMatchObject({ kind: 'serve', action: { type: 'type', text: 'Jo' } });
    expect(await chooseStep(node(step), { screen: plainScreen(), focus: { x: 100, y: 140 }, masks: [] }, new Map([['first', 'Jo']]))).toMatchObject({ kind: 'miss' });
    const small = { width: 300, height: 200, pixels: Buffer.alloc(300 * 200 * 4, 0xee) };
    // A blank screen's crop shows everywhere: it proves nothing.
    const blank = { width: 400, height: 200, pixels: Buffer.alloc(400 * 200 * 4, 0xee) };
    expect(await chooseStep(node(await clickStep(blank, {})), { screen: blank, masks: [] }, new Map())).toMatchObject({ kind: 'miss', reason: expect.stringContaining('elsewhere') });
    expect(await chooseStep(node(await clickStep(plainScreen(), {})), { screen: small, masks: [] }, new Map())).toMatchObject({ kind: 'miss', reason: 'the screenshot is 300x200, recorded 400x200' });
  });
});
