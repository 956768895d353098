import type { Page } from 'playwright';
import { scriptedAgent } from '../../src/agent/scriptedAgent.js';
import type { Site } from './site.js';

/** A stock grid in a frame, as legacy apps have them (e2e/frames.spec.ts and the fault suite's frame faults). */

/** A stock grid: fields with no labels, told apart only by the row header far to their left. */
export function grid(rows: readonly string[]): string {
  return `<!doctype html><title>Stock</title><style>body{margin:0;font:14px sans-serif} td{height:40px;padding:0 4px} td.name{width:260px} input{width:120px;height:24px}</style>
<table>${rows.map((row) => `<tr><td class="name">${row}</td><td><input></td></tr>`).join('')}</table>
<button style="position:absolute;left:8px;top:170px" onclick="fetch('/saved?' + Array.prototype.map.call(document.querySelectorAll('tr'), function (tr) { return tr.cells[0].textContent + '=' + tr.querySelector('input').value; }).join('&'))">Save</button>`;
}

export const framed = (src: string) => `<!doctype html><title>Stock</title><h1 style="font:20px sans-serif;margin:8px">Stock</h1>
<iframe src="${src}" style="position:absolute;left:40px;top:80px;width:520px;height:240px;border:1px solid #999"></iframe>`;

/** The agent: the Pears field (found where it is now), the quantity, Save. */
export async function pearsAgent(page: Page) {
  const frame = page.frameLocator('iframe');
  const field = (await frame.locator('tr', { hasText: 'Pears' }).locator('input').boundingBox())!;
  const save = (await frame.getByRole('button', { name: 'Save' }).boundingBox())!;
  return scriptedAgent([
    { actions: [{ type: 'click', x: field.x + field.width / 2, y: field.y + field.height / 2 }, { type: 'type', text: '{{qty}}' }, { type: 'click', x: save.x + save.width / 2, y: save.y + save.height / 2 }] },
    { done: true },
  ]);
}

export const TASK = 'Set the stock of Pears to {{qty}}';
export const saved = (site: Site) => site.hits.filter((hit) => hit.startsWith('GET /saved')).map((hit) => decodeURIComponent(hit.slice('GET /saved?'.length)));

