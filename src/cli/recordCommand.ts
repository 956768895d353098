import { createInterface } from 'node:readline';
import type { Browser } from 'playwright';
import { describeAction } from '../actions/action.js';
import type { Agent } from '../agent/agent.js';
import { launchBrowser } from '../browser/launch.js';
import type { RunResult } from '../engine/runResult.js';
import { redactValues, secret, SECRET_MASK } from '../params/secret.js';
import type { ParamValue } from '../params/params.js';
import { PersonAgent } from '../recorder/personAgent.js';
import { Rote } from '../rote.js';
import { displayProblem, validateRecordArgs, type RecordArgs, type RecordArgsInput } from './recordArgs.js';
import { messageOf, firstLineOf } from '../errors/messageOf.js';

export type RecordCommandOptions = RecordArgsInput;

/** What the command needs from the process; tests pass their own. */
export type RecordIo = {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  out: (text: string) => void;
  err: (text: string) => void;
  launch: (options: { headless: boolean }) => Promise<Browser>;
  /** Lines typed here finish the recording (Enter); none when absent. */
  input?: NodeJS.ReadableStream;
  /** Calls `handler` on Ctrl+C; returns the unsubscribe. */
  onInterrupt: (handler: () => void) => () => void;
};

/** The viewport recordings are made in: the one Playwright Test and rote's own tests use, so replays there see the same layout. */
export const RECORD_VIEWPORT = { width: 1280, height: 800 };

/** A person records long tasks: one step is one agent call here, and thinking takes time. */
const RECORD_LIMITS = { timeout: 4 * 60 * 60 * 1000, maxAgentCalls: 5_000, maxSteps: 5_000 };

export const ABORTED_EXIT_CODE = 130;

export function processIo(): RecordIo {
  return {
    env: process.env,
    platform: process.platform,
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    launch: (options) => launchBrowser(options),
    input: process.stdin,
    onInterrupt: (handler) => {
      let count = 0;
      const listener = () => {
        count++;
        // A second Ctrl+C does not wait for the browser to close.
        if (count > 1) process.exit(ABORTED_EXIT_CODE);
        handler();
      };
      process.on('SIGINT', listener);
      return () => void process.off('SIGINT', listener);
    },
  };
}

/**
 * `rote record`: a person does the task in a browser window while rote records it as a
 * trajectory; parameter values they type become `{{name}}`. Every argument is checked before a
 * browser opens. Exit code 0 when a trajectory was stored, 2 for a usage error (nothing happened), 130 when aborted, 1 otherwise.
 */
export async function recordCommand(options: RecordCommandOptions, io: RecordIo = processIo()): Promise<number> {
  const args = usableArgs(options, io);
  if (!args) return 2;

  const rote = await Rote.open({ store: args.store });
  let browser: Browser | undefined;
  let aborted = false;
  const controller = new AbortController();
  const cleanups: (() => void)[] = [];
  try {
    browser = await io.launch({ headless: args.headless });
    const context = await browser.newContext({ viewport: RECORD_VIEWPORT });
    const page = await context.newPage();
    const agent = await PersonAgent.attach(page, { onNotice: (message) => io.err(`  ! ${message}\n`) });
    try {
      await page.goto(args.url, { waitUntil: 'domcontentloaded' });
    } catch (error) {
      io.err(`rote record: could not open ${args.url}: ${firstLineOf(error)}\n`);
      return 1;
    }

    cleanups.push(
      io.onInterrupt(() => {
        aborted = true;
        io.err('\nAborting: nothing will be stored.\n');
        agent.abort('the recording was aborted (Ctrl+C); nothing was stored');
        controller.abort();
      }),
    );
    if (io.input) cleanups.push(finishOnEnter(io.input, agent));

    io.out(introduction(args, page.url()));
    const result = await rote.run(page, {
      task: args.task,
      params: paramsOf(args),
      agent: printingSteps(agent, io.out),
      mode: 'record',
      signal: controller.signal,
      ...RECORD_LIMITS,
    });
    return report(result, args, aborted, io);
  } catch (error) {
    if (aborted) {
      io.err('Recording aborted; nothing was stored.\n');
      return ABORTED_EXIT_CODE;
    }
    io.err(`rote record: ${messageOf(error)}\n`);
    return 1;
  } finally {
    cleanups.forEach((cleanup) => cleanup());
    await browser?.close().catch(() => undefined);
    await rote.close();
  }
}

/** The checked arguments, or undefined once their problems (or a missing display) are told: a usage error, before anything opens. */
function usableArgs(options: RecordCommandOptions, io: RecordIo): RecordArgs | undefined {
  const checked = validateRecordArgs(options);
  if ('problems' in checked) {
    io.err(`rote record: ${checked.problems.length === 1 ? checked.problems[0] : `\n${checked.problems.map((problem) => `  - ${problem}`).join('\n')}`}\n`);
    return undefined;
  }
  const args = checked.args;
  const noDisplay = displayProblem(io.env, io.platform, args.headless);
  if (noDisplay) {
    io.err(`rote record: ${noDisplay}\n`);
    return undefined;
  }
  return args;
}

/** Each line typed on `input` (Enter) finishes the recording; returns the cleanup that stops listening. */
function finishOnEnter(input: NodeJS.ReadableStream, agent: PersonAgent): () => void {
  const lines = createInterface({ input, terminal: false });
  lines.on('line', () => agent.finish());
  return () => lines.close();
}

function paramsOf(args: RecordArgs): Record<string, ParamValue> {
  return Object.fromEntries(args.params.map(([name, value]) => [name, args.secrets.includes(name) ? secret(value) : value]));
}

function introduction(args: RecordArgs, startUrl: string): string {
  const params = args.params.map(([name, value]) => `${name}=${args.secrets.includes(name) ? `${SECRET_MASK} (secret)` : JSON.stringify(value)}`);
  const secretValues = args.params.filter(([name, value]) => args.secrets.includes(name) && value !== '').map(([, value]) => value);
  return [
    `rote record: ${JSON.stringify(redactValues(args.task, secretValues))}, starting at ${startUrl}`,
    params.length > 0 ? `Parameters: ${params.join(', ')}. Type these values where they belong; they are stored as {{name}}.` : 'No parameters: every typed text is stored as it is.',
    args.headless
      ? 'Headless: there is no window; the page takes input only from a script driving it.'
      : 'Do the task in the browser window as you usually would; each click, typed value and key is one step.',
    'Finish: click "Finish recording" at the bottom right of the page, close the page, or press Enter here. Ctrl+C aborts without storing anything.',
    '',
    '',
  ].join('\n');
}

/** The steps as the engine recorded them (values as typed, secrets masked), shown when the person is asked again. */
function printingSteps(agent: PersonAgent, out: (text: string) => void): Agent {
  let shown = 0;
  return {
    name: agent.name,
    next: (observation) => {
      for (const step of observation.history.slice(shown)) {
        shown++;
        out(`  ${shown}. ${step.intent ?? describeAction(step.action)}: ${describeAction(step.action)}\n`);
      }
      return agent.next(observation);
    },
  };
}

function report(result: RunResult, args: RecordArgs, aborted: boolean, io: RecordIo): number {
  if (aborted || result.status === 'interrupted' || result.errorCode === 'aborted') {
    io.err('Recording aborted; nothing was stored.\n');
    return ABORTED_EXIT_CODE;
  }
  if (result.status === 'failed') {
    io.err(`Recording failed; nothing was stored.\n${result.error ?? ''}\n`);
    return 1;
  }
  if (result.steps.length === 0) {
    io.err('Nothing was recorded: the recording finished before any step, so no trajectory was stored.\n');
    return 1;
  }
  io.out(
    [
      '',
      `Recorded ${result.steps.length} step${result.steps.length === 1 ? '' : 's'} in ${(result.durationMs / 1000).toFixed(1)} s: status ${result.status}.`,
      `Task key: ${result.taskKey}`,
      `Stored in ${args.store} (run ${result.runId}).`,
      'Replay it with new values: rote.run(page, { task, params }) on a page at the same start URL.',
      '',
    ].join('\n'),
  );
  return 0;
}
