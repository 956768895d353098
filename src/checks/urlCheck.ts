/**
 * Origin and path must match; query parameters are compared order-free. Returns null for a
 * match or the reason it is not one. Never act on another origin.
 */
export function compareUrls(recorded: string, current: string): string | null {
  let a: URL;
  let b: URL;
  try {
    a = new URL(recorded);
    b = new URL(current);
  } catch {
    return recorded === current ? null : `the page is at ${current}, recorded at ${recorded}`;
  }
  if (a.origin !== b.origin) return `the page is on another origin (${b.origin}, recorded ${a.origin})`;
  if (a.pathname !== b.pathname) return `the page is at ${b.pathname}, recorded at ${a.pathname}`;
  const query = (url: URL) => [...url.searchParams.entries()].map(([k, v]) => `${k}=${v}`).sort().join('&');
  if (query(a) !== query(b)) return `the page's query is ?${query(b)}, recorded ?${query(a)}`;
  return null;
}
