import { RoteError } from '../errors/roteError.js';
import { jobSpecSchema, type JobSpec } from '../scheduler/jobSpec.js';
import { parseNameValues, parseSecretRefs } from './nameValues.js';

/** The options that describe a job, shared by `rote run` and `rote schedule add`. */
export type JobArgs = {
  url?: string;
  param?: string[];
  params?: string;
  secret?: string[];
  rows?: string;
  concurrency?: number;
  retry?: number;
  backoff?: number;
  agent?: string;
  model?: string;
  mode?: string;
  timeout?: number;
  report?: string;
};

/** The job the arguments describe, validated (zod) with messages naming the option. */
export function specFrom(task: string, options: JobArgs, where: string, headed = false): JobSpec {
  const parsed = jobSpecSchema.safeParse({
    task,
    ...(options.url !== undefined ? { url: options.url } : {}),
    params: parseNameValues(options.param ?? [], '--param', where),
    ...(options.params !== undefined ? { paramsFile: options.params } : {}),
    ...(options.rows !== undefined ? { rowsFile: options.rows } : {}),
    secrets: parseSecretRefs(options.secret ?? [], where),
    ...(options.agent !== undefined ? { agent: options.agent } : {}),
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...(options.mode !== undefined ? { mode: options.mode } : {}),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.retry !== undefined || options.backoff !== undefined ? { retry: { attempts: options.retry ?? 1, backoffMs: options.backoff ?? 2_000 } } : {}),
    ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
    ...(options.report !== undefined ? { report: options.report } : {}),
    headed,
  });
  if (options.backoff !== undefined && options.retry === undefined) throw new RoteError('invalid-argument', `${where}: --backoff sets the wait between attempts; give --retry N (N > 1) too`);
  if (options.model !== undefined && options.agent !== 'openai') throw new RoteError('invalid-argument', `${where}: --model names the model of --agent openai; give --agent openai too`);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const option = OPTION_NAMES[String(issue.path[0])] ?? String(issue.path[0]);
    throw new RoteError('invalid-argument', `${where}: ${option} ${issue.message.replace(/^Invalid (input|option): /, '')}`);
  }
  return parsed.data;
}

const OPTION_NAMES: Record<string, string> = {
  task: '<task>',
  url: '--url',
  params: '--param',
  paramsFile: '--params',
  rowsFile: '--rows',
  secrets: '--secret',
  agent: '--agent (none, demo or openai)',
  model: '--model',
  mode: '--mode (auto or replay-only)',
  concurrency: `--concurrency`,
  retry: '--retry / --backoff',
  timeout: '--timeout',
  report: '--report',
};

