import type { Page } from 'playwright';
import { httpOrigin } from '../checks/urlCheck.js';
import { RoteError } from '../errors/roteError.js';
import type { BoundParams } from '../params/boundParams.js';
import { mergeSchemas, normalizeSchema, schemaFromStored } from '../params/paramSchema.js';
import type { ParamSchema } from '../params/paramType.js';
import { bindParams } from '../params/params.js';
import { redactSecrets } from '../params/secret.js';
import { taskIdentity, type TaskIdentity } from '../params/taskKey.js';
import type { Store } from '../store/store.js';
import type { ToolRegistry } from '../tools/toolRegistry.js';
import { OriginGuard } from './originGuard.js';
import { RunContext } from './runContext.js';
import type { ValidRunOptions } from './runOptions.js';
import type { RunInput } from './runState.js';

/**
 * A run planned from its validated options, before anything happens on the page: its values bound
 * (all problems at once), the task it is, where it may go, and its clock. `secrets` collects every
 * value bound as a secret, so that nothing thrown out of the run shows one.
 */
export async function planRun(input: { page: Page; store: Store; tools: ToolRegistry; options: ValidRunOptions; where: string; jobId: string | undefined; secrets: Set<string> }): Promise<RunInput> {
  const { page, store, options: valid, where } = input;
  const declared = normalizeSchema(valid.schema, where);
  const { params, identity } = await identify(input, declared);
  const start = httpOrigin(page.url());
  if (valid.allowedOrigins && (start === undefined || !valid.allowedOrigins.includes(start))) {
    throw new RoteError('invalid-argument', `${where}: the page is on ${start ?? page.url()}, which options.allowedOrigins does not list (${valid.allowedOrigins.join(', ')})`);
  }
  return {
    page,
    store,
    identity,
    task: valid.task,
    params,
    declaredSchema: declared,
    agent: valid.agent,
    tools: input.tools,
    mode: valid.mode,
    limits: { checkTimeoutMs: valid.checkTimeout, maxAgentCalls: valid.maxAgentCalls, maxSteps: valid.maxSteps },
    context: new RunContext(where, valid.timeout, valid.signal, valid.stop, (line) => redactSecrets(line, params)),
    origins: new OriginGuard(page.url(), valid.allowedOrigins, where),
    ...(input.jobId !== undefined ? { jobId: input.jobId } : {}),
  };
}

/**
 * The run's values and the task they make. In two stages, because each needs the other: the
 * task's key is made from the values (the task text with them as templates, secrets hidden), and
 * what the recording learned of the values (their types, defaults, which are secret, which the
 * steps need) is stored under that key. So the values are read under the caller's schema to find
 * the task, then bound under the learned one, all problems at once; the task's identity is taken
 * from those final values.
 */
async function identify(input: { page: Page; store: Store; options: ValidRunOptions; where: string; secrets: Set<string> }, declared: ParamSchema): Promise<{ params: BoundParams; identity: TaskIdentity }> {
  const { page, options: valid, where } = input;
  const bind = (schema: ParamSchema, required?: ReadonlyMap<string, string>) => {
    const params = bindParams(valid.params, where, schema, required);
    params.secretValues().forEach((value) => input.secrets.add(value));
    return { params, identity: taskIdentity(valid.task, params, valid.tags, page.url(), where) };
  };
  const asDeclared = bind(declared);
  const stored = await input.store.getTask(asDeclared.identity.key);
  if (!stored) return asDeclared;
  const required = new Map(stored.paramNames.map((name) => [name, `the recorded trajectory types or chooses {{${name}}}`]));
  return bind(mergeSchemas(schemaFromStored(stored.paramSchema), declared), required);
}
