import { formatTime } from './layout.js';
import { html, type Markup } from './markup.js';
import type { ProxyNamespaceTotals } from '../store/conversationStore.js';

/**
 * What `rote proxy` did, per namespace: the requests it answered from the store (each one an
 * upstream call saved), the tokens those calls did not cost, and what it holds. A namespace is
 * named by the start of its hash: the API key itself is never stored, so it cannot be shown.
 */
export function proxySection(namespaces: readonly ProxyNamespaceTotals[]): Markup {
  if (namespaces.length === 0) return html``;
  const sum = (field: 'hits' | 'tokensSaved') => namespaces.reduce((total, row) => total + row[field], 0);
  return html`<h2 id="proxy">rote proxy</h2>
<p class="muted">${sum('hits')} requests answered from the store: ${sum('hits')} upstream calls and ${sum('tokensSaved')} tokens saved.</p>
<table id="proxy-namespaces"><thead><tr><th>Namespace (API key hash)</th><th class="num">Replies stored</th><th class="num">Upstream calls saved</th><th class="num">Tokens saved</th><th class="num">Templates learned</th><th>Last served (UTC)</th></tr></thead>
<tbody>${namespaces.map(
    (row) => html`<tr><td><code>${row.namespace.slice(0, 12)}</code></td><td class="num">${row.replies}</td><td class="num">${row.hits}</td><td class="num">${row.tokensSaved}</td><td class="num">${row.templates}</td><td>${row.lastHitAt === null ? '–' : formatTime(row.lastHitAt)}</td></tr>`,
  )}</tbody></table>`;
}
