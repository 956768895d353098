import { messageOf } from '../errors/messageOf.js';
import { problemList } from '../errors/problemList.js';
import { RoteError } from '../errors/roteError.js';
import { bindParams, type ParamsInput } from '../params/params.js';
import { mergeSchemas, schemaFromStored } from '../params/paramSchema.js';
import type { ParamSchema } from '../params/paramType.js';
import { secret } from '../params/secret.js';
import { templateNames } from '../params/template.js';
import type { TaskRow } from '../store/rows.js';
import type { ParamRow } from './rowsFile.js';

/** What every row gets besides its own columns: fixed `--param` values and secrets from the environment. */
export type SharedParams = { plain: Readonly<Record<string, string>>; secrets: Readonly<Record<string, string>> };

/** One row of a job, ready to run: its index in the rows file, its parameters as rote.run takes them (secrets wrapped). */
export type JobRow = { index: number; params: ParamsInput; /** The row's own columns, as the file gave them. */ values: Readonly<Record<string, string>> };

/**
 * Checks every row against the stored task before any row runs: each column must be a parameter
 * the task knows, each parameter the task needs must come from a column or a shared value, and
 * each value must fit the type the recording learned (a date in the format it was given). Every
 * bad row and column is named in one error; nothing is run from a file that has one.
 */
export function rowsForTask(task: TaskRow, columns: readonly string[], rows: readonly ParamRow[], shared: SharedParams, where: string): JobRow[] {
  const schema: ParamSchema = mergeSchemas(schemaFromStored(task.paramSchema), {});
  const known = new Set([...task.paramNames, ...Object.keys(schema), ...templateNames(task.taskTemplate)]);
  const needed = [...new Set([...task.paramNames, ...templateNames(task.taskTemplate)])];
  const problems: string[] = [];
  const sharedNames = [...Object.keys(shared.plain), ...Object.keys(shared.secrets)];
  for (const name of sharedNames) {
    if (!known.has(name)) problems.push(`unknown parameter ${JSON.stringify(name)} (--param, --params or --secret): the task uses ${[...known].map((other) => JSON.stringify(other)).join(', ') || 'no parameters'}`);
  }
  for (const name of Object.keys(shared.plain)) {
    // A value the task keeps secret never comes from the command line (ps and shell history show it) nor a schedule.
    if (schema[name]?.type === 'secret') problems.push(`${JSON.stringify(name)} is a secret parameter: give it with --secret ${name}=env:VARIABLE, not as a value`);
  }
  for (const column of columns) {
    if (!known.has(column)) problems.push(`unknown column ${JSON.stringify(column)}: the task uses ${[...known].map((name) => JSON.stringify(name)).join(', ') || 'no parameters'}`);
    if (sharedNames.includes(column)) problems.push(`column ${JSON.stringify(column)} is also given by --param or --secret; give it once`);
  }
  for (const name of needed) {
    if (!columns.includes(name) && !sharedNames.includes(name)) problems.push(`missing column ${JSON.stringify(name)}: the recorded task types or chooses {{${name}}}`);
  }
  if (problems.length > 0) throw new RoteError('invalid-argument', problemList(where, problems));
  const required = new Map(needed.map((name) => [name, `the recorded task types or chooses {{${name}}}`]));
  const jobRows: JobRow[] = [];
  for (const row of rows) {
    const params: ParamsInput = { ...shared.plain, ...Object.fromEntries(Object.entries(shared.secrets).map(([name, value]) => [name, secret(value)])), ...row.values };
    try {
      bindParams(params, `row ${row.index}${row.line ? ` (line ${row.line})` : ''}`, schema, required);
      jobRows.push({ index: row.index, params, values: row.values });
    } catch (error) {
      problems.push(messageOf(error));
    }
  }
  if (problems.length > 0) throw new RoteError('invalid-argument', problemList(where, problems));
  return jobRows;
}

