/** The end of the flow, "Book published", and the catalogue's not-found page. */
import { escapeHtml } from '../../../src/demo/app/html.js';
import { heading, layout, type P } from './layout.js';

export type PublishedBook = { id: number; fields: Record<string, string> };

const ROWS: readonly [string, string][] = [
  ['title', 'Title'],
  ['author', 'Author'],
  ['genre', 'Genre'],
  ['publisher', 'Publisher'],
  ['isbn', 'ISBN'],
  ['shelf', 'Shelf'],
  ['stoppedAt', 'Indexed'],
  ['notes', 'Notes'],
];

export function publishedPage(p: P, book: PublishedBook, slowMs: number): string {
  const f = book.fields;
  const rows = ROWS.map(([key, label]) => {
    const text = key === 'stoppedAt' ? `${f[key] ?? ''}% (the rest overnight)` : (f[key] ?? '');
    return `<tr><th style="width: 120px; height: 24px; padding: 0 10px; text-align: left; font-weight: normal; background: #f6f1e4; border: 1px solid #b9b0a0;">${label}</th><td style="padding: 0 10px; border: 1px solid #b9b0a0;">${escapeHtml(text)}</td></tr>`;
  }).join('\n');
  const content = `${heading('Book published')}
<p id="confirmation" style="margin: 0 0 10px 0;">&ldquo;${escapeHtml(f.title ?? '')}&rdquo; by ${escapeHtml(f.author ?? '')} is in the catalogue as book no. ${book.id}, on shelf ${escapeHtml(f.shelf ?? '')}.</p>
<table cellpadding="0" cellspacing="0" style="border-collapse: collapse; width: 560px;">
${rows}
</table>
<p style="margin: 12px 0 0 0;"><a href="/books/new" style="color: #5b2a2a;">Catalogue another book</a></p>`;
  return layout(p, 'Book published', content, slowMs);
}

export function notFoundPage(p: P): string {
  return layout(p, 'Not found', `${heading('Not found')}<p>The page you requested does not exist.</p>`, 0);
}
