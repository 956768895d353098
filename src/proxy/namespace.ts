import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { headerOf } from './httpParts.js';

/**
 * Which trees a request belongs to. Each API key has its own, so that two keys never share an
 * answer: the namespace is a hash of the request's credential, and the credential itself is never
 * kept (only this hash, which cannot be turned back into it). An operator may name one namespace
 * that every key shares (`rote proxy --namespace NAME`).
 */

/** The namespace of a request; undefined when it carries no credential (it is then forwarded and nothing kept). */
export function namespaceOf(req: IncomingMessage, shared?: string): string | undefined {
  // Azure's OpenAI endpoints take the key as api-key; some gateways as x-api-key.
  const credential = headerOf(req, 'authorization') ?? headerOf(req, 'api-key') ?? headerOf(req, 'x-api-key');
  // Even in a shared namespace, a request with no key is not served: it could not have been answered upstream.
  if (!credential) return undefined;
  return shared ?? namespaceOfAuthorization(credential);
}

/** The namespace an operator names for every key to share (`rote proxy --namespace NAME`). */
export function sharedNamespace(name: string): string {
  return createHash('sha256').update(`rote-proxy-shared\n${name}`).digest('hex');
}

/** The namespace of an Authorization header's value ("Bearer sk-..."), for `rote proxy clear`. */
export function namespaceOfAuthorization(authorization: string): string {
  return createHash('sha256').update(`rote-proxy\n${authorization}`).digest('hex');
}
