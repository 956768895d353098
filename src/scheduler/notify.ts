import { spawn } from 'node:child_process';
import { z } from 'zod';
import { firstLineOf, messageOf } from '../errors/messageOf.js';
import { accept, refuse, type Outcome } from '../errors/refusal.js';

/** Who hears of a slot that did not end well: a URL its summary is POSTed to, or a command given it on stdin. */
export const onFailureSchema = z.union([
  z.object({ url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }) }).strict(),
  z.object({ command: z.string().trim().min(1) }).strict(),
]);
export type OnFailure = z.infer<typeof onFailureSchema>;

/** A notice is given up on after this long: a hanging receiver must not hold the daemon. */
const NOTIFY_TIMEOUT_MS = 15_000;

/** `--on-failure` as given: an http(s) URL (one that parses), or else a shell command; refused, with why, otherwise. */
export function parseOnFailure(text: string): Outcome<OnFailure> {
  const trimmed = text.trim();
  if (trimmed === '') return refuse('--on-failure must be an http(s) URL or a command');
  const candidate = /^[a-z][a-z0-9+.-]*:\/?\/?/i.test(trimmed) && /^https?:/i.test(trimmed) ? { url: trimmed } : { command: trimmed };
  const parsed = onFailureSchema.safeParse(candidate);
  return parsed.success ? accept(parsed.data) : refuse(`--on-failure ${JSON.stringify(trimmed)} is not a valid http(s) URL (${parsed.error.issues[0]?.message ?? 'invalid'}); give a URL such as https://hooks.example/rote, or a command`);
}

/**
 * Sends a failure notice: POSTs it as JSON to the URL, or runs the command (through the shell)
 * with it on stdin. Resolves to a problem in words, or undefined when it was delivered; it never
 * throws, since a receiver that is down must not stop the schedule.
 */
export async function notifyFailure(onFailure: OnFailure, notice: unknown, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const body = JSON.stringify(notice);
  if ('url' in onFailure) {
    try {
      const response = await fetch(onFailure.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(NOTIFY_TIMEOUT_MS) });
      return response.ok ? undefined : `${onFailure.url} answered ${response.status} ${response.statusText}`;
    } catch (error) {
      return `${onFailure.url}: ${firstLineOf(messageOf(error))}`;
    }
  }
  return new Promise((resolve) => {
    const child = spawn(onFailure.command, { shell: true, env, stdio: ['pipe', 'ignore', 'pipe'], timeout: NOTIFY_TIMEOUT_MS });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => resolve(`${onFailure.command}: ${error.message}`));
    child.on('close', (code, signal) => resolve(code === 0 ? undefined : `${onFailure.command} exited ${signal ?? code}${stderr.trim() ? `: ${firstLineOf(stderr.trim())}` : ''}`));
    child.stdin.on('error', () => undefined);
    child.stdin.end(body);
  });
}
