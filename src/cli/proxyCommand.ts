import { readFile, writeFile } from 'node:fs/promises';
import { RoteError } from '../errors/roteError.js';
import { messageOf } from '../errors/messageOf.js';
import { listProblems } from '../params/paramSchema.js';
import { conversationFileSchema, exportConversations, importConversations, referenceProblems, type ConversationFile } from '../proxy/conversationFile.js';
import { namespaceOfAuthorization, sharedNamespace } from '../proxy/namespace.js';
import { startProxy } from '../proxy/proxyServer.js';
import { StoreConversationTree } from '../proxy/storeConversationTree.js';
import { storeRunLog } from '../proxy/proxyRuns.js';
import { checkStoreScheme, openStore } from '../store/store.js';
import { openExistingStore } from './storeArgument.js';

export type ProxyCommandOptions = { upstream?: string; port: number; host: string; store: string; learn: boolean; namespace?: string };

/**
 * `rote proxy`: the OpenAI-compatible caching endpoint, until SIGINT or SIGTERM. It prints where
 * it listens and one line per request (hit, miss, kept), never a key or a message's content.
 */
export async function proxyCommand(options: ProxyCommandOptions): Promise<number> {
  if (options.upstream === undefined) throw new RoteError('invalid-argument', 'rote proxy: give --upstream URL, the model service to forward to (e.g. https://api.openai.com/v1)');
  checkStoreScheme(options.store);
  const upstream = new URL(options.upstream);
  const store = await openStore(options.store);
  try {
    const tree = new StoreConversationTree(store.conversations);
    const shared = options.namespace === undefined ? undefined : sharedNamespace(options.namespace);
    const proxy = await startProxy({ upstream, tree, runs: storeRunLog(store), port: options.port, host: options.host, learn: options.learn, sharedNamespace: shared, log: (line) => process.stdout.write(`${line}\n`) }).catch((error: NodeJS.ErrnoException) => {
      throw new RoteError('invalid-argument', `rote proxy: cannot listen on ${options.host}:${options.port} (${error.code ?? error.message})`);
    });
    const sharing = options.namespace === undefined ? '' : `; every key shares the namespace "${options.namespace}"`;
    process.stdout.write(`rote proxy on ${proxy.url}/v1, forwarding to ${upstream.origin}${upstream.pathname === '/' ? '' : upstream.pathname}; store ${store.location}${sharing}. Ctrl+C stops it.\n`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await proxy.close();
    return 0;
  } finally {
    await store.close();
  }
}

/** Which namespace a subcommand means: one API key's (read from $VAR), a shared one's by name, or (when `all` may be meant) none. */
export type NamespaceOptions = { keyEnv?: string; namespace?: string };

export function chosenNamespace(options: NamespaceOptions, where: string): { namespace?: string; said: string } {
  if (options.keyEnv !== undefined && options.namespace !== undefined) throw new RoteError('invalid-argument', `${where}: give --key-env VAR or --namespace NAME, not both`);
  if (options.namespace !== undefined) {
    if (options.namespace.trim() === '') throw new RoteError('invalid-argument', `${where}: --namespace is empty: expected the name given to rote proxy --namespace`);
    return { namespace: sharedNamespace(options.namespace), said: `the namespace "${options.namespace}"` };
  }
  if (options.keyEnv === undefined) return { said: 'every key' };
  const key = process.env[options.keyEnv];
  if (!key) throw new RoteError('invalid-argument', `${where}: the environment variable ${options.keyEnv} is not set or is empty`);
  return { namespace: namespaceOfAuthorization(`Bearer ${key}`), said: `the key in $${options.keyEnv}` };
}

export type ProxyClearOptions = NamespaceOptions & { store: string; all?: boolean; branch?: string };

/**
 * `rote proxy clear`: forgets the conversations of one API key (read from an environment
 * variable, never from the command line, where `ps` would show it), of a shared namespace, of one
 * branch (a node and the conversations through it, or a learned template), or of every key.
 */
export async function proxyClear(options: ProxyClearOptions): Promise<number> {
  const given = [options.all === true, options.keyEnv !== undefined, options.namespace !== undefined, options.branch !== undefined].filter(Boolean).length;
  if (given !== 1) throw new RoteError('invalid-argument', 'rote proxy clear: give --key-env VAR (the API key whose conversations to forget, read from $VAR), --namespace NAME, --branch ID or --all, and only one');
  if (options.branch !== undefined) return clearBranch(options.store, options.branch);
  const chosen = chosenNamespace(options, 'rote proxy clear');
  const store = await openExistingStore(options.store, 'proxy clear');
  try {
    const removed = await store.conversations.clear(chosen.namespace);
    process.stdout.write(`removed ${removed} stored message${removed === 1 ? '' : 's'} of ${chosen.said}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

async function clearBranch(location: string, id: string): Promise<number> {
  if (!/^[0-9a-f-]{36}$/.test(id)) throw new RoteError('invalid-argument', `rote proxy clear --branch: "${id}" is not an id: expected the Rote-Node or Rote-Template of a hit, such as 0b1c7a52-5f0e-4c1e-9a3d-2f6a8e1b9c40`);
  const store = await openExistingStore(location, 'proxy clear');
  try {
    const cleared = await store.conversations.clearBranch(id);
    if (cleared.nodes === 0 && cleared.templates === 0) throw new RoteError('invalid-argument', `rote proxy clear --branch: no stored message or learned template has the id ${id}`);
    process.stdout.write(cleared.templates > 0 ? `refuted the learned template ${id}: it is never served or learned again\n` : `removed ${cleared.nodes} stored message${cleared.nodes === 1 ? '' : 's'} of the branch at ${id}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

export type ProxyExportOptions = NamespaceOptions & { store: string; out: string; json?: boolean };

/** `rote proxy export --out FILE`: one key's (or a namespace's, or every key's) conversations and learned templates as a file. */
export async function proxyExport(options: ProxyExportOptions): Promise<number> {
  const chosen = chosenNamespace(options, 'rote proxy export');
  const store = await openExistingStore(options.store, 'proxy export');
  try {
    const file = await exportConversations(store.conversations, chosen.namespace);
    await writeFile(options.out, `${JSON.stringify(file, null, 1)}\n`, { mode: 0o600 });
    const counts = { conversations: file.conversations.length, templates: file.templates.filter((template) => !template.refuted).length };
    process.stdout.write(options.json ? `${JSON.stringify({ file: options.out, ...counts })}\n` : `Exported ${counts.conversations} conversations and ${counts.templates} learned templates of ${chosen.said} to ${options.out}.\n`);
    return 0;
  } finally {
    await store.close();
  }
}

export type ProxyImportOptions = NamespaceOptions & { store: string; json?: boolean };

/** `rote proxy import FILE`: a file's conversations into the store, where they were or into one key's (or a shared) namespace. */
export async function proxyImport(path: string, options: ProxyImportOptions): Promise<number> {
  const where = `rote proxy import ${JSON.stringify(path)}`;
  const chosen = chosenNamespace(options, where);
  // Read and validated before the store is opened: a bad file changes nothing.
  const file = await readConversationFile(path, where);
  checkStoreScheme(options.store);
  const store = await openStore(options.store);
  try {
    const counts = await importConversations(store.conversations, file, chosen.namespace);
    const into = chosen.namespace === undefined ? 'the namespaces they were exported from' : chosen.said;
    process.stdout.write(options.json ? `${JSON.stringify({ file: path, ...counts })}\n` : `Imported ${counts.conversations} conversations and ${counts.templates} learned templates into ${into}.\n`);
    return 0;
  } finally {
    await store.close();
  }
}

async function readConversationFile(path: string, where: string): Promise<ConversationFile> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new RoteError('invalid-argument', `${where}: cannot read it as JSON: ${messageOf(error)}`, { cause: error });
  }
  const parsed = conversationFileSchema.safeParse(json);
  if (!parsed.success) throw new RoteError('invalid-argument', listProblems(where, 'the file', parsed.error.issues.map((issue) => `${issue.path.join('.') || '(the file)'}: ${issue.message}`)));
  const problems = referenceProblems(parsed.data);
  if (problems.length > 0) throw new RoteError('invalid-argument', listProblems(where, 'the file', problems));
  return parsed.data;
}
