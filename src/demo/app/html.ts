/**
 * HTML pieces that the demo app and the benchmark apps (bench/apps/*) render identically. Each
 * app keeps its own chrome. Only what is the same to the byte lives here, because stored
 * recordings compare screenshots pixel for pixel.
 */

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** The legacy body font of every app. */
export const PAGE_FONT = 'font-family: Verdana, Arial, Helvetica, sans-serif; font-size: 13px;';

/**
 * The start of every page, up to the last line inside <head> (the caller adds its own and closes
 * it). The empty favicon stops the browser from requesting /favicon.ico, which would be a 404.
 */
export function pageHead(title: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">`;
}

/**
 * The rows a confirmation page lists: the known fields in form order (empty when not posted),
 * then any other posted field under its raw name, so that nothing the server received is hidden.
 */
export function submittedRows(known: readonly { name: string; label: string }[], fields: Record<string, string>): { label: string; value: string }[] {
  const names = new Set(known.map((f) => f.name));
  return [
    ...known.map((f) => ({ label: f.label, value: fields[f.name] ?? '' })),
    ...Object.keys(fields)
      .filter((name) => !names.has(name))
      .map((name) => ({ label: name, value: fields[name] ?? '' })),
  ];
}
