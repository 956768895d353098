// A project's own file that uses the installed package: the library and the Playwright Test
// fixture, with types, as src/package.test.ts type-checks and runs it.
import { Rote, RoteError, param, secret, scriptedAgent, type Agent, type RunOptions, type RunResult } from 'rote';
import { test, expect, type RoteTestOptions } from 'rote/test';

const agent: Agent = scriptedAgent([{ done: true }]);
const options: RunOptions = {
  task: 'Register patient {{firstName}}',
  params: { firstName: 'Ada', pin: secret('1234') },
  schema: { firstName: param.string() },
  agent,
  mode: 'replay-only',
};
const fixtureOptions: RoteTestOptions = { rote: { store: ':memory:', mode: 'replay-only', recordings: 'recordings' } };
const statusOf = (result: RunResult): string => result.status;

const rote = await Rote.open({ store: ':memory:' });
await rote.close();
console.log('rote: opened and closed an in-memory store', typeof test, typeof expect, typeof statusOf, options.task, fixtureOptions.rote?.mode, RoteError.name);
