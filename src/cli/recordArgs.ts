import { accept, refuse, type Outcome } from '../errors/refusal.js';
import { PARAM_NAME } from '../params/paramName.js';

/** The arguments of `rote record`, checked before a browser opens; every problem is listed at once. */

export type RecordArgs = {
  url: string;
  task: string;
  /** Parameter values, in the order given. */
  params: [name: string, value: string][];
  /** Names of params whose values are secret. */
  secrets: string[];
  store: string;
  headless: boolean;
};

export type RecordArgsInput = {
  url?: string;
  task?: string;
  param?: string[];
  secret?: string[];
  store: string;
  headless?: boolean;
};


/** `name=value` -> [name, value], the value may hold `=`; refused, with why, otherwise. */
export function parseParam(text: string): Outcome<{ name: string; value: string }> {
  const at = text.indexOf('=');
  if (at < 0) return refuse(`--param ${JSON.stringify(text)}: expected name=value, such as --param firstName=Ada`);
  const name = text.slice(0, at).trim();
  if (!PARAM_NAME.test(name)) return refuse(`--param ${JSON.stringify(text)}: the name ${JSON.stringify(name)} must be letters, digits and _, not starting with a digit`);
  return accept({ name, value: text.slice(at + 1) });
}

function urlProblem(url: string | undefined): string | undefined {
  const example = 'such as https://example.com/form';
  if (url === undefined || url.trim() === '') return `--url is required: the page to start on, ${example}`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `--url: expected an absolute http(s) or file URL, ${example}, got ${JSON.stringify(url)}`;
  }
  if (!['http:', 'https:', 'file:'].includes(parsed.protocol)) return `--url: expected an http(s) or file URL, ${example}, got ${JSON.stringify(url)}`;
  return undefined;
}

export function validateRecordArgs(input: RecordArgsInput): { args: RecordArgs } | { problems: string[] } {
  const problems: string[] = [];
  const url = urlProblem(input.url);
  if (url) problems.push(url);
  const task = input.task?.trim() ?? '';
  if (task === '') problems.push('--task is required: what the recording does, in words, such as --task "Register patient Ada Lovelace"');
  const params: [string, string][] = [];
  for (const text of input.param ?? []) {
    const parsed = parseParam(text);
    if (!parsed.ok) problems.push(parsed.reason);
    else if (params.some(([name]) => name === parsed.value.name)) problems.push(`--param ${parsed.value.name} is given twice`);
    else params.push([parsed.value.name, parsed.value.value]);
  }
  const names = new Set(params.map(([name]) => name));
  const secrets: string[] = [];
  for (const name of input.secret ?? []) {
    if (!names.has(name)) {
      const given = names.size > 0 ? `the params are ${[...names].join(', ')}` : 'no --param was given';
      problems.push(`--secret ${JSON.stringify(name)} names no parameter (${given}); give its value with --param ${name}=VALUE`);
    } else if (!secrets.includes(name)) {
      secrets.push(name);
    }
  }
  if (problems.length > 0) return { problems };
  return { args: { url: input.url!, task, params, secrets, store: input.store, headless: input.headless === true } };
}

/**
 * Why no browser window can open here, if so: a Unix desktop needs DISPLAY (X11) or
 * WAYLAND_DISPLAY. macOS and Windows always have one.
 */
export function displayProblem(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, headless: boolean): string | undefined {
  if (headless || platform === 'darwin' || platform === 'win32') return undefined;
  if ((env.DISPLAY ?? '') !== '' || (env.WAYLAND_DISPLAY ?? '') !== '') return undefined;
  return [
    'no display to open a browser window on (neither DISPLAY nor WAYLAND_DISPLAY is set).',
    '  Run it in a desktop session, over ssh -X, or under a virtual display: xvfb-run -a rote record ...',
    '  --headless records without a window, for a script or test that drives the page itself.',
  ].join('\n');
}
