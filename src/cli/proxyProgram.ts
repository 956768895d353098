import type { Command } from 'commander';
import { httpUrl, portNumber } from './optionParsers.js';
import type { ProxyClearOptions, ProxyCommandOptions, ProxyExportOptions, ProxyImportOptions } from './proxyCommand.js';

/** `rote proxy` and its subcommands, in the command table; their code is loaded when one runs (see program.ts). */
export function addProxyCommands(program: Command): void {
  const proxy = program
    .command('proxy')
    .description('An OpenAI-compatible endpoint between an agent and its model: chat completions it has seen are served from the store, the rest forwarded and kept.')
    // Not a required option: commander would then require it of `rote proxy clear` too.
    .option('--upstream <url>', 'the model service to forward to, e.g. https://api.openai.com/v1 (required)', httpUrl)
    .option('--port <n>', 'the port to listen on', portNumber, 8787)
    .option('--host <address>', 'the address to listen on (127.0.0.1: this machine only)', '127.0.0.1')
    .option('--store <path>', 'SQLite file, or a postgres:// URL', '.rote/rote.db')
    .option('--namespace <name>', 'one namespace every API key shares (by default each key has its own); also picks it in clear, export and import')
    .option('--no-learn', 'do not learn templates from conversations that declare no values')
    .addHelpText('after', '\nPoint the agent\'s base URL at http://127.0.0.1:8787/v1 and send its values in a Rote-Params header:\n  rote proxy --upstream https://api.openai.com/v1\n')
    .action(async (options: ProxyCommandOptions) => {
      process.exitCode = await (await import('./proxyCommand.js')).proxyCommand(options);
    });

  // --store and --namespace are rote proxy's own options (commander gives them to the parent
  // wherever they stand): the subcommands read them with optsWithGlobals.
  proxy
    .command('clear')
    .description('Forget the stored conversations of one API key, of a namespace, of one branch, or of every key.')
    .option('--key-env <var>', 'the environment variable that holds the API key')
    .option('--branch <id>', 'one branch: a node (Rote-Node of a hit, or the log) and every conversation through it, or a learned template (Rote-Template), refuted')
    .option('--all', 'every key')
    .action(async (_options: unknown, command: Command) => {
      process.exitCode = await (await import('./proxyCommand.js')).proxyClear(command.optsWithGlobals<ProxyClearOptions>());
    });

  proxy
    .command('export')
    .description('Write stored conversations and learned templates to a file (one key\'s with --key-env, a namespace\'s with --namespace, else every key\'s).')
    .requiredOption('--out <file>', 'the file to write')
    .option('--key-env <var>', 'the environment variable that holds the API key')
    .option('--json', 'print JSON')
    .action(async (_options: unknown, command: Command) => {
      process.exitCode = await (await import('./proxyCommand.js')).proxyExport(command.optsWithGlobals<ProxyExportOptions>());
    });

  proxy
    .command('import')
    .description('Store the conversations of a file written by rote proxy export, where they were or into one key\'s (--key-env) or a namespace\'s (--namespace) trees.')
    .argument('<file>', 'a file written by rote proxy export')
    .option('--key-env <var>', 'the environment variable that holds the API key')
    .option('--json', 'print JSON')
    .action(async (file: string, _options: unknown, command: Command) => {
      process.exitCode = await (await import('./proxyCommand.js')).proxyImport(file, command.optsWithGlobals<ProxyImportOptions>());
    });
}
