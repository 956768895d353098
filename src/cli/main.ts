#!/usr/bin/env node
import { Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_MODEL } from './agentChoice.js';
import { RoteError } from '../errors/roteError.js';
import { demoCommand } from './demoCommand.js';
import { runsCommand } from './runsCommand.js';

const program = new Command()
  .name('rote')
  .description('Muscle memory for browser agents: record a task once, replay it at script speed, hand over only where the page differs.')
  .showHelpAfterError();

program
  .command('demo')
  .description('Four runs against a legacy intake form: a recorded miss, a replay with new values, a takeover at a popup, and the popup replayed.')
  .option('--json', 'print the runs as one JSON array')
  .option('--store <path>', 'SQLite file for the demo (emptied first)', '.rote/demo.db')
  .option('--model <name>', `the model, used when OPENAI_API_KEY is set (default ${DEFAULT_MODEL}); OPENAI_BASE_URL sets the server`)
  .addOption(new Option('--tool-form <form>', 'the computer tool: preview (computer_use_preview) or batch (computer); default from the model').choices(['preview', 'batch']))
  .option('--chat-completions', 'use an OpenAI-compatible chat completions server at OPENAI_BASE_URL (vLLM, Ollama) with function tools; needs --model')
  .addHelpText('after', '\nWithout OPENAI_API_KEY (or --chat-completions) the offline demo agent runs; no model service is called.')
  .action(async (options: { json?: boolean; store: string; model?: string; toolForm?: 'preview' | 'batch'; chatCompletions?: boolean }) => {
    process.exitCode = await demoCommand(options);
  });

program
  .command('runs')
  .description('List the latest runs in a store.')
  .option('--store <path>', 'SQLite file', '.rote/rote.db')
  .option('--limit <n>', 'how many runs', positiveInteger, 20)
  .option('--json', 'print JSON')
  .action((options: { store: string; limit: number; json?: boolean }) => {
    process.exitCode = runsCommand(options);
  });

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new InvalidArgumentError(`expected a whole number from 1 up, got ${JSON.stringify(value)}`);
  return parsed;
}

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`${RoteError.isInstance(error) ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
