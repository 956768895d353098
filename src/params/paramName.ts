/**
 * What a parameter name is, written once: a letter or _, then letters, digits and _. Templates,
 * schemas, recordings and the CLI all read names with these patterns.
 */
const NAME_SOURCE = '[A-Za-z_][A-Za-z0-9_]*';

/** A whole string that is a valid parameter name. */
export const PARAM_NAME = new RegExp(`^${NAME_SOURCE}$`);

/** Whether `name` can name a parameter (`__proto__` cannot: it would not be an own key). */
export function isParamName(name: string): boolean {
  return PARAM_NAME.test(name) && name !== '__proto__';
}

/**
 * `{{name}}` or `{{name|format}}`, the name in group 1 and the format in group 2. A new RegExp on
 * every call, since a global pattern keeps its lastIndex between uses.
 */
export function placeholderPattern(options: { global?: boolean; whole?: boolean; formats?: boolean; capture?: boolean } = {}): RegExp {
  const { global = false, whole = false, formats = true, capture = true } = options;
  const name = capture ? `(${NAME_SOURCE})` : NAME_SOURCE;
  const format = formats ? (capture ? '(?:\\|([^{}]*?))?' : '(?:\\|[^{}]*?)?') : '';
  const body = `\\{\\{\\s*${name}\\s*${format}\\s*\\}\\}`;
  return new RegExp(whole ? `^${body}$` : capture ? body : `(${body})`, global ? 'g' : '');
}
