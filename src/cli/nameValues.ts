import { RoteError } from '../errors/roteError.js';
import { isParamName } from '../params/paramName.js';
import { parseParam } from './recordArgs.js';

/** Repeated `--param name=value` options as one record; a name given twice or a malformed one is an error naming it. */
export function parseNameValues(texts: readonly string[], option: string, where: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const text of texts) {
    const parsed = parseParam(text);
    if (!parsed.ok) throw new RoteError('invalid-argument', `${where}: ${parsed.reason}`);
    const { name, value } = parsed.value;
    if (name in values) throw new RoteError('invalid-argument', `${where}: ${option} ${name} is given twice`);
    values[name] = value;
  }
  return values;
}

/**
 * Repeated `--secret name=env:VAR` options: the parameter and the environment variable that holds
 * its value. The value itself is never on the command line (where `ps` and shell history show it)
 * nor in a schedule.
 */
export function parseSecretRefs(texts: readonly string[], where: string): Record<string, string> {
  const refs: Record<string, string> = {};
  for (const text of texts) {
    const match = /^([^=]+)=env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(text.trim());
    if (!match || !isParamName(match[1]!.trim())) {
      throw new RoteError('invalid-argument', `${where}: --secret ${JSON.stringify(text)}: expected name=env:VARIABLE, such as --secret password=env:PORTAL_PASSWORD (the value is read from the environment, never given on the command line)`);
    }
    const name = match[1]!.trim();
    if (name in refs) throw new RoteError('invalid-argument', `${where}: --secret ${name} is given twice`);
    refs[name] = match[2]!;
  }
  return refs;
}
