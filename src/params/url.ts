/** Origin, path and query sorted by name; the fragment is dropped. Non-http URLs stay as they are. */
export function normalizeUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return parsed.href.replace(/#.*$/, '');
  const query = [...parsed.searchParams.entries()].sort(([a, av], [b, bv]) => (a === b ? av.localeCompare(bv) : a.localeCompare(b)));
  const search = query.length > 0 ? `?${new URLSearchParams(query).toString()}` : '';
  return `${parsed.origin}${parsed.pathname}${search}`;
}
