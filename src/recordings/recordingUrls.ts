/**
 * Origin independence. A trajectory's URLs are bound to the host it was recorded on, but tests
 * start apps on random ports and teams replay on staging and prod. In the file, a URL on the
 * recording's origin is written relative to it (`/intake?x=1`) and the origin once; an import puts
 * the URLs back on whichever origin it is given.
 */
import { httpOrigin } from '../checks/urlCheck.js';
import type { RecordingFile } from './recordingSchema.js';

/** The parts of a recording that carry URLs. */
type WithUrls = Pick<RecordingFile, 'task' | 'nodes'>;

/** A path on the recording's origin: one leading slash (two would be a protocol-relative URL). */
export function isRelativeUrl(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//');
}

/** The URL relative to `origin` when it is on it (and has a path); otherwise as it is. */
export function relativeTo(url: string, origin: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url; // a template or not a URL at all: kept as written
  }
  // Compared parsed, so "http://host:4010" (no path) and "http://host:4010?x=1" move with the rest.
  if (parsed.origin !== origin || !url.startsWith(origin)) return url;
  const rest = url.slice(origin.length);
  return isRelativeUrl(rest) ? rest : `/${rest}`;
}

/** A relative URL put on `origin`; any other URL as it is. */
export function onOrigin(url: string, origin: string): string {
  return isRelativeUrl(url) ? `${origin}${url}` : url;
}

/** The recording's origin: the start URL's, else the first step's that is on http(s). */
export function recordingOrigin(recording: WithUrls): string | null {
  for (const { url } of urlsOf(recording)) {
    const origin = httpOrigin(url);
    if (origin) return origin;
  }
  return null;
}

/** Every URL field with its path in the file, the start URL first. */
export function urlsOf(recording: WithUrls): { path: string; url: string }[] {
  const urls = [{ path: 'task.startUrl', url: recording.task.startUrl }];
  recording.nodes.forEach((node, at) => {
    urls.push({ path: `nodes[${at}].url`, url: node.url });
    if (node.action.type === 'goto') urls.push({ path: `nodes[${at}].action.url`, url: node.action.url });
    if (node.state.endUrl !== undefined) urls.push({ path: `nodes[${at}].state.endUrl`, url: node.state.endUrl });
  });
  return urls;
}

/** A copy with every URL field mapped; nothing else changes, key order included. */
export function mapUrls<T extends WithUrls>(recording: T, map: (url: string) => string): T {
  return {
    ...recording,
    task: { ...recording.task, startUrl: map(recording.task.startUrl) },
    nodes: recording.nodes.map((node) => ({
      ...node,
      url: map(node.url),
      action: node.action.type === 'goto' ? { ...node.action, url: map(node.action.url) } : node.action,
      state: node.state.endUrl === undefined ? node.state : { ...node.state, endUrl: map(node.state.endUrl) },
    })),
  };
}
