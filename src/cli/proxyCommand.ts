import { RoteError } from '../errors/roteError.js';
import { namespaceOfAuthorization } from '../proxy/chatCompletions.js';
import { startProxy } from '../proxy/proxyServer.js';
import { StoreConversationTree } from '../proxy/storeConversationTree.js';
import { checkStoreScheme, openStore } from '../store/store.js';
import { openExistingStore } from './storeArgument.js';

export type ProxyCommandOptions = { upstream?: string; port: number; host: string; store: string };

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
    const proxy = await startProxy({ upstream, tree: new StoreConversationTree(store.conversations), port: options.port, host: options.host, log: (line) => process.stdout.write(`${line}\n`) }).catch((error: NodeJS.ErrnoException) => {
      throw new RoteError('invalid-argument', `rote proxy: cannot listen on ${options.host}:${options.port} (${error.code ?? error.message})`);
    });
    process.stdout.write(`rote proxy on ${proxy.url}/v1, forwarding to ${upstream.origin}${upstream.pathname === '/' ? '' : upstream.pathname}; store ${store.location}. Ctrl+C stops it.\n`);
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

export type ProxyClearOptions = { store: string; keyEnv?: string; all?: boolean };

/**
 * `rote proxy clear`: forgets the conversations of one API key (read from an environment
 * variable, never from the command line, where `ps` would show it) or of every key.
 */
export async function proxyClear(options: ProxyClearOptions): Promise<number> {
  if (Boolean(options.all) === (options.keyEnv !== undefined)) throw new RoteError('invalid-argument', 'rote proxy clear: give --key-env VAR (the API key whose conversations to forget, read from $VAR) or --all, not both');
  let namespace: string | undefined;
  if (options.keyEnv !== undefined) {
    const key = process.env[options.keyEnv];
    if (!key) throw new RoteError('invalid-argument', `rote proxy clear: the environment variable ${options.keyEnv} is not set or is empty`);
    namespace = namespaceOfAuthorization(`Bearer ${key}`);
  }
  const store = await openExistingStore(options.store, 'proxy clear');
  try {
    const removed = await store.conversations.clear(namespace);
    process.stdout.write(`removed ${removed} stored message${removed === 1 ? '' : 's'} of ${namespace === undefined ? 'every key' : `the key in $${options.keyEnv}`}\n`);
    return 0;
  } finally {
    await store.close();
  }
}
