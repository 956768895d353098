import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { messageOf } from '../errors/messageOf.js';
import { RoteError } from '../errors/roteError.js';
import { importRecording } from '../recordings/importRecording.js';
import { findTask } from '../store/findTask.js';
import type { TaskRow } from '../store/rows.js';
import type { Store } from '../store/store.js';
import type { AgentCatalog, AgentFactory } from './agentCatalog.js';
import type { JobSpec } from './jobSpec.js';
import { rowsForTask, type JobRow, type SharedParams } from './rowParams.js';
import { readRowsFile, type ParamRow } from './rowsFile.js';

/** A job checked and ready: every row validated against the task, secrets read, the agent made. */
export type PreparedJob = { spec: JobSpec; task: TaskRow; url: string; rows: JobRow[]; agent: AgentFactory; fromFolder: boolean };

/**
 * Everything a job needs, checked before any browser starts or any row runs: the task (a
 * recording folder is imported into the store first), the start URL, the secrets from their
 * environment variables, the shared values and every row against the task's stored schema. A
 * problem is one RoteError ('invalid-argument') naming what is wrong.
 */
/** What preparing a job reads: the store, the environment (secrets, an agent's key) and the agents by name. */
export type JobSources = { store: Store; env: NodeJS.ProcessEnv; agents: AgentCatalog };

export async function prepareJob(spec: JobSpec, { store, env, agents }: JobSources, where: string): Promise<PreparedJob> {
  const agent = agents(spec.agent, spec.model ? { model: spec.model } : {}, env, where);
  const secrets = secretValues(spec.secrets, env, where);
  const plain = { ...readParamsFile(spec.paramsFile, where), ...spec.params };
  const given = [...Object.keys(plain)].filter((name) => name in secrets);
  if (given.length > 0) throw new RoteError('invalid-argument', `${where}: ${given.map((name) => JSON.stringify(name)).join(', ')} given both as a value and as a secret; give each once`);
  const { task, fromFolder } = await resolveTask(spec, store, where);
  const url = spec.url ?? defaultUrl(task, where);
  const shared: SharedParams = { plain, secrets };
  const file = spec.rowsFile ? readRowsFile(spec.rowsFile, where) : undefined;
  const single: ParamRow = { index: 1, line: 0, values: {} };
  const rows = rowsForTask(task, file?.columns ?? [], file?.rows ?? [single], shared, where);
  return { spec, task, url, rows, agent, fromFolder };
}

async function resolveTask(spec: JobSpec, store: Store, where: string): Promise<{ task: TaskRow; fromFolder: boolean }> {
  if (isRecordingFolder(spec.task)) {
    const imported = await importRecording(store, spec.task, spec.url ? { baseURL: spec.url } : {});
    const task = await store.getTask(imported.taskKey);
    if (!task) throw new RoteError('internal', `${where}: the recording in "${spec.task}" was imported but its task ${imported.taskKey} is not in the store`);
    return { task, fromFolder: true };
  }
  const summary = findTask(await store.listTasks(), spec.task, where);
  return { task: summary, fromFolder: false };
}

/** A folder holding a recording.json (an exported recording), rather than a task key or template. */
export function isRecordingFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory() && existsSync(join(path, 'recording.json'));
  } catch {
    return false;
  }
}

/** The task's own start URL, when nothing in it varies (no value as {{name}}, no record id as :id). */
function defaultUrl(task: TaskRow, where: string): string {
  if (/\{\{|\/:id(\/|$|\?)|=:id(&|$)/.test(task.startUrl)) {
    throw new RoteError('invalid-argument', `${where}: give --url: the task's start URL ${task.startUrl} has parts that vary from run to run`);
  }
  return task.startUrl;
}

function secretValues(secrets: Readonly<Record<string, string>>, env: NodeJS.ProcessEnv, where: string): Record<string, string> {
  const values: Record<string, string> = {};
  const unset: string[] = [];
  for (const [name, variable] of Object.entries(secrets)) {
    const value = env[variable];
    if (value === undefined || value === '') unset.push(`secret ${JSON.stringify(name)}: the environment variable ${variable} is not set`);
    else values[name] = value;
  }
  if (unset.length > 0) throw new RoteError('invalid-argument', `${where}: ${unset.join('; ')}`);
  return values;
}

function readParamsFile(path: string | undefined, where: string): Record<string, string> {
  if (path === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new RoteError('invalid-argument', `${where}: --params "${path}" is not a readable JSON file: ${messageOf(error)}`, { cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new RoteError('invalid-argument', `${where}: --params "${path}" must hold a JSON object of name -> value`);
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value === 'string') values[name] = value;
    else if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') values[name] = String(value);
    else throw new RoteError('invalid-argument', `${where}: --params "${path}": ${name} must be a string, number or boolean`);
  }
  return values;
}
