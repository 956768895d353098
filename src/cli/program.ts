import { Command, Option } from 'commander';
import type { RunCommandOptions } from './runCommand.js';
import type { WorkerCommandOptions } from './workerCommand.js';
import type { DaemonCommandOptions } from './daemonCommand.js';
import type { ScheduleAddOptions } from './scheduleCommand.js';
import { DEFAULT_MODEL } from '../agent/openai/agentOptions.js';
import type { RecordCommandOptions } from './recordCommand.js';
import type { ReportCommandOptions } from './reportCommand.js';
import type { StatsCommandOptions } from './statsCommand.js';
import { packageVersion } from './packageVersion.js';
import { collect, httpUrl, portNumber, positiveInteger, wholeNumber } from './optionParsers.js';
import { addProxyCommands } from './proxyProgram.js';

/**
 * The rote command: every subcommand with its options and help. Built by a function, so the CLI
 * reference test reads the same help a user sees without running anything. Each command's code is
 * loaded when it runs: `rote --help`, a bad option or `rote tasks` does not load Playwright, the
 * OpenAI client and the job queue (1.45 s of CPU for all of them against 0.08 s for `rote tasks`'s own, measured).
 */
export function buildProgram(): Command {
  const program = new Command()
    .name('rote')
    .version(packageVersion(), '-V, --version', 'print the version of rote')
    .description('Muscle memory for browser agents: record a task once, replay it at script speed, hand over only where the page differs.')
    .showHelpAfterError()
    // A usage error (an unknown option, a bad value) exits 2, apart from runs that diverged or failed (1).
    .exitOverride();

  jobOptions(
    program
      .command('run')
      .description('Run a stored task (or a recording folder) once, or once per row of a CSV, JSON or JSON Lines file, and report each run.')
      .argument('<task>', 'a task key, a unique key prefix, the exact template (see rote tasks), or a recording folder'),
  )
    .option('--retry-failed <file>', 'write the rows that did not end well to this file, to run again with --rows')
    .option('--headed', 'show the browser window')
    .option('--json', 'print the summary as JSON on the last line, and nothing else on stdout')
    .addHelpText('after', '\nExit codes: 0 every run ended well, 1 a run diverged or failed, 2 a usage error (nothing was run).\nExample:\n  rote run "Register patient {{firstName}} {{lastName}} in the intake form" --url http://127.0.0.1:3000/intake \\\n    --rows patients.csv --concurrency 3 --agent demo\n')
    .action(async (task: string, options: RunCommandOptions) => {
      process.exitCode = await (await import('./runCommand.js')).runCommand(task, options);
    });

  const schedule = program.command('schedule').description('Schedules in the store: a task run on a cron expression, over a rows file, by rote daemon.');


  jobOptions(
    schedule
      .command('add')
      .description('Add a schedule: the task runs at every slot of the cron expression, once or once per row.')
      .argument('<name>', 'a name for the schedule (letters, digits, . _ -)')
      .argument('<task>', 'a task key, a unique key prefix, the exact template, or a recording folder')
      .requiredOption('--cron <expression>', 'five fields (minute hour day month weekday), or six with seconds first: "0 2 * * *", "*/5 * * * * *"')
      .option('--tz <zone>', 'the time zone the expression is read in (IANA, e.g. Europe/Berlin)', 'UTC')
      .option('--on-failure <url|command>', "when a slot does not end well: POST its summary to this URL, or run this command with it on stdin")
      .option('--paused', 'add it paused (rote schedule resume starts it)'),
  ).action(async (name: string, task: string, options: ScheduleAddOptions) => {
    process.exitCode = await (await import('./scheduleCommand.js')).scheduleAdd(name, task, options);
  });

  schedule
    .command('ls')
    .description('List the schedules: cron, next slot, the last slot and how it ended.')
    .option('--store <path>', 'SQLite file, or a postgres:// URL', '.rote/rote.db')
    .option('--json', 'print JSON')
    .action(async (options: { store: string; json?: boolean }) => {
      process.exitCode = await (await import('./scheduleCommand.js')).scheduleList(options);
    });

  schedule
    .command('show')
    .description("A schedule's job and its latest slots.")
    .argument('<name>')
    .option('--store <path>', 'SQLite file, or a postgres:// URL', '.rote/rote.db')
    .option('--limit <n>', 'how many slots', positiveInteger, 20)
    .option('--json', 'print JSON')
    .action(async (name: string, options: { store: string; json?: boolean; limit: number }) => {
      process.exitCode = await (await import('./scheduleCommand.js')).scheduleShow(name, options);
    });

  for (const [verb, description] of [['rm', 'Remove a schedule and the record of its slots.'], ['pause', 'Pause a schedule: no slot runs, none is owed.'], ['resume', 'Resume a paused schedule.']] as const) {
    schedule
      .command(verb)
      .description(description)
      .argument('<name>')
      .option('--store <path>', 'SQLite file, or a postgres:// URL', '.rote/rote.db')
      .action(async (name: string, options: { store: string }) => {
        const schedules = await import('./scheduleCommand.js');
        process.exitCode = verb === 'rm' ? await schedules.scheduleRemove(name, options) : await schedules.schedulePause(name, verb === 'resume', options);
      });
  }

  schedule
    .command('run-now')
    .description("Run one slot of a schedule now, in this process, recorded like the daemon's.")
    .argument('<name>')
    .option('--store <path>', 'SQLite file, or a postgres:// URL', '.rote/rote.db')
    .option('--json', 'print the slot as JSON')
    .action(async (name: string, options: { store: string; json?: boolean }) => {
      process.exitCode = await (await import('./scheduleCommand.js')).scheduleRunNow(name, options);
    });

  program
    .command('daemon')
    .description("Run the store's schedules until SIGTERM or SIGINT (a clean stop: runs under way end after their current step).")
    .option('--store <path>', 'SQLite file, or a postgres:// URL', '.rote/rote.db')
    .addOption(new Option('--catch-up <policy>', 'slots missed while no daemon ran: none, latest (run the latest once), all').choices(['none', 'latest', 'all']).default('latest'))
    .action(async (options: DaemonCommandOptions) => {
      process.exitCode = await (await import('./daemonCommand.js')).daemonCommand(options);
    });

  program
    .command('worker')
    .description("Take run jobs from a PostgreSQL store's queue (rote run --rows and schedules queue one per row) until SIGTERM or SIGINT; any number of workers on any machines learn into one cache.")
    .requiredOption('--store <url>', 'the postgres:// URL of the shared store')
    .option('--concurrency <n>', 'rows at once in this worker (browser contexts on one browser)', positiveInteger, 1)
    .option('--headed', 'show the browser')
    .action(async (options: WorkerCommandOptions) => {
      process.exitCode = await (await import('./workerCommand.js')).workerCommand(options);
    });

  program
    .command('demo')
    .description('Four runs against a legacy intake form: a recorded miss, a replay with new values, a takeover at a popup, and the popup replayed.')
    .option('--json', 'print the runs as one JSON array (with --schedule: the summary as JSON on the last line)')
    .option('--schedule', 'the unattended flow instead: record, schedule the task every few seconds over a CSV of six patients, run the daemon until they are done, check each on the server')
    .option('--store <path>', 'SQLite file for the demo (emptied first), or a postgres:// URL (nothing is deleted there)', '.rote/demo.db')
    .option('--model <name>', `the model, used when OPENAI_API_KEY is set (default ${DEFAULT_MODEL}); OPENAI_BASE_URL sets the server`)
    .addOption(new Option('--tool-form <form>', 'the computer tool: preview (computer_use_preview) or batch (computer); default from the model').choices(['preview', 'batch']))
    .option('--chat-completions', 'use an OpenAI-compatible chat completions server at OPENAI_BASE_URL (vLLM, Ollama) with function tools; needs --model')
    .option('--serve', 'only serve the demo\'s intake form on 127.0.0.1 until Ctrl+C, to record and replay it by hand (docs/getting-started.md)')
    .option('--port <n>', 'the port --serve listens on', portNumber, 3000)
    .addHelpText('after', '\nWithout OPENAI_API_KEY (or --chat-completions) the offline demo agent runs; no model service is called.')
    .action(async (options: { json?: boolean; schedule?: boolean; serve?: boolean; port: number; store: string; model?: string; toolForm?: 'preview' | 'batch'; chatCompletions?: boolean }) => {
      process.exitCode = await (await import('./demoCommand.js')).demoCommand(options);
    });

  program
    .command('runs')
    .description('List the latest runs in a store.')
    .option('--store <path>', 'SQLite file, or a postgres:// URL', '.rote/rote.db')
    .option('--limit <n>', 'how many runs', positiveInteger, 20)
    .option('--json', 'print JSON')
    .action(async (options: { store: string; limit: number; json?: boolean }) => {
      process.exitCode = await (await import('./runsCommand.js')).runsCommand(options);
    });

  /** The filters `rote report` and `rote stats` share. */
  function runFilterOptions(command: Command): Command {
    return command
      .option('--run <id>', 'a run id or a unique prefix of one (repeatable)', collect)
      .option('--since <date>', 'runs started since: 2026-11-01, 2026-11-01T08:00 (UTC unless a zone is given), or 12h, 7d back from now')
      .option('--schedule <name>', 'the runs of this schedule')
      .option('--task <task>', 'the runs of this task: a key, a unique key prefix or the exact template')
      .option('--store <path>', 'SQLite file, or a postgres:// URL', '.rote/rote.db')
      .option('--json', 'print JSON');
  }

  runFilterOptions(
    program
      .command('report')
      .description('Write a self-contained HTML report (no network, nothing outside the folder) of the runs: what was replayed, where pages differed, what the agent did, what it saved.')
      .requiredOption('--out <dir>', 'the folder to write (new, empty, or an earlier report to replace)')
      .option('--open', 'open the report in the system browser'),
  ).action(async (options: ReportCommandOptions) => {
    process.exitCode = await (await import('./reportCommand.js')).reportCommand(options);
  });

  runFilterOptions(program.command('stats').description("The report's totals in the terminal: runs fully replayed, agent calls and tokens against agent-only runs, time per run and where it went, where runs diverge most.")).action(
    async (options: StatsCommandOptions) => {
      process.exitCode = await (await import('./statsCommand.js')).statsCommand(options);
    },
  );

  program
    .command('record')
    .description('Record a task done by a person in a browser window, as a trajectory rote replays with new values.')
    .option('--url <url>', 'the page to start on')
    .option('--task <text>', 'what the task does, in words; parameter values in it become {{name}}')
    .option('--param <name=value>', 'a parameter and the value the person types (repeatable)', collect)
    .option('--secret <name>', 'a --param whose value is secret: never stored, logged or shown (repeatable)', collect)
    .option('--store <path>', 'SQLite file, or a postgres:// URL', '.rote/rote.db')
    .option('--headless', 'no window: for a script or test that drives the page itself')
    .addHelpText('after', '\nFinish with the "Finish recording" button on the page, by closing the page, or Enter here; Ctrl+C aborts without storing.\nExample:\n  rote record --url http://127.0.0.1:3000/intake --task "Register patient Ada Lovelace" \\\n    --param firstName=Ada --param lastName=Lovelace\n')
    .action(async (options: RecordCommandOptions) => {
      process.exitCode = await (await import('./recordCommand.js')).recordCommand(options);
    });

  program
    .command('tasks')
    .description('List the cached tasks in a store, with their keys and number of steps.')
    .option('--store <path>', 'SQLite file, or a postgres:// URL', '.rote/rote.db')
    .option('--json', 'print JSON')
    .action(async (options: { store: string; json?: boolean }) => {
      process.exitCode = await (await import('./tasksCommand.js')).tasksCommand(options);
    });

  program
    .command('export')
    .description('Write a task\'s trajectory as a recording folder (recording.json and evidence/*.png) to review and commit.')
    .argument('<task>', 'a task key, a unique key prefix, or the exact task template (see rote tasks)')
    .requiredOption('--out <folder>', 'the recording folder to write (new, empty, or an earlier export to update)')
    .option('--store <path>', 'SQLite file, or a postgres:// URL', '.rote/rote.db')
    .option('--json', 'print JSON')
    .action(async (task: string, options: { out: string; store: string; json?: boolean }) => {
      process.exitCode = await (await import('./exportCommand.js')).exportCommand(task, options);
    });

  program
    .command('import')
    .description('Store the trajectory of a recording folder, so runs on that origin replay it.')
    .argument('<folder>', 'a recording folder written by rote export')
    .option('--store <path>', 'SQLite file (created if missing)', '.rote/rote.db')
    .option('--base-url <url>', 'replay on this origin instead of the recorded one (e.g. http://localhost:3000)', httpUrl)
    .option('--json', 'print JSON')
    .action(async (folder: string, options: { store: string; baseUrl?: string; json?: boolean }) => {
      process.exitCode = await (await import('./importCommand.js')).importCommand(folder, options);
    });

  addProxyCommands(program);

  return program;
}






/** The job options `rote run` and `rote schedule add` share. */
function jobOptions(command: Command): Command {
  return command
    .option('--url <url>', "the page to start on (default: the task's start URL, when nothing in it varies)")
    .option('--param <name=value>', 'a value every run gets (repeatable)', collect)
    .option('--params <file.json>', 'a JSON object of values every run gets')
    .option('--secret <name=env:VAR>', 'a secret value, read from the environment variable VAR (repeatable)', collect)
    .option('--rows <file>', 'one run per row: a .csv with a header of parameter names, a .json array or .jsonl of objects')
    .option('--concurrency <n>', 'rows at once, each in its own browser context', positiveInteger)
    .option('--retry <n>', 'attempts per row for failures that may pass (a browser crash, a timeout, a model error)', positiveInteger)
    .option('--backoff <ms>', 'the wait before the first retry, doubling each time (default 2000)', wholeNumber)
    .addOption(new Option('--agent <name>', 'who takes over where the cache cannot go: none (the run ends diverged), demo (offline), openai').choices(['none', 'demo', 'openai']))
    .option('--model <name>', `with --agent openai (default ${DEFAULT_MODEL}); OPENAI_API_KEY and OPENAI_BASE_URL from the environment`)
    .addOption(new Option('--mode <mode>', 'auto: the agent where needed; replay-only: never the agent').choices(['auto', 'replay-only']))
    .option('--timeout <ms>', "each run's deadline", positiveInteger)
    .option('--report <dir>', 'write an HTML report when the job ends (rote run: of its runs; a schedule: of all its slots, kept up to date by the daemon)')
    .option('--store <path>', 'SQLite file, or a postgres:// URL', '.rote/rote.db');
}
