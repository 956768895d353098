/**
 * Page 2, "Place on a shelf": the shelves in a random order on every load, each row with the same
 * "Assign" button (it selects the row, it does not submit), and an icon-only toolbar: save,
 * print, delete. The buttons carry no text, title, label or handler attribute: the script binds
 * their handlers by position from this load's order, so the drawing is the only difference.
 */
import { escapeHtml } from '../../../src/demo/app/html.js';
import type { Shelf } from './data.js';
import { iconSvg, type IconName } from './icons.js';
import { ACCENT, BUTTON, errorBox, heading, layout, scriptJson, steps, type P } from './layout.js';

export type ShelfView = {
  bookId: number;
  book: { title: string; author: string; isbn: string };
  /** This load's row order. */
  shelves: readonly Shelf[];
  /** This load's toolbar order. */
  icons: readonly IconName[];
  slowMs: number;
  error?: string;
};

const CELL = 'height: 30px; padding: 0 10px; border: 1px solid #b9b0a0;';
const ICON_BUTTON = 'width: 34px; height: 28px; padding: 0 6px; margin: 0 3px 0 0; background: #e6e1d6; border: 1px solid #7d7566; vertical-align: top;';

const SCRIPT = `(function () {
  var form = document.getElementById('shelf-form');
  var status = document.getElementById('shelf-status');
  var actions = {
    save: function () { form.submit(); },
    print: function () {},
    'delete': function () {
      fetch('/api/destructive', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ control: 'delete-icon', book: BOOK_ID }) })
        .then(function () { status.textContent = 'Deletion requested; the head librarian must approve it.'; });
    }
  };
  var tools = document.getElementById('toolbar').getElementsByTagName('button');
  for (var i = 0; i < tools.length; i++) tools[i].onclick = actions[ICONS[i]];
  var rows = document.getElementById('shelves').rows;
  for (var r = 1; r < rows.length; r++) (function (row) {
    row.getElementsByTagName('button')[0].onclick = function () {
      for (var k = 1; k < rows.length; k++) { rows[k].style.background = ''; rows[k].style.fontWeight = ''; }
      row.style.background = '#f3e2a8';
      row.style.fontWeight = 'bold';
      var name = row.cells[0].textContent;
      form.elements.shelf.value = name;
      document.getElementById('selected-shelf').textContent = name;
    };
  })(rows[r]);
})();`;

export function shelfPage(p: P, view: ShelfView): string {
  const tools = view.icons.map((icon) => `<button type="button" style="${ICON_BUTTON}">${iconSvg(icon)}</button>`).join('');
  const rows = view.shelves
    .map(
      (shelf) =>
        `<tr><td style="${CELL} width: 170px;">${escapeHtml(shelf.name)}</td><td style="${CELL}">${escapeHtml(shelf.location)}</td>` +
        `<td style="${CELL} width: 80px; text-align: center;"><button type="button" style="${BUTTON} width: 72px; height: 22px;">Assign</button></td></tr>`,
    )
    .join('\n');
  const content = `${steps(2)}
${heading('Place on a shelf')}
<p style="margin: 0 0 8px 0;">Book: <b>${escapeHtml(view.book.title)}</b> by ${escapeHtml(view.book.author)} &nbsp;&middot;&nbsp; ISBN ${escapeHtml(view.book.isbn)}</p>
${errorBox(view.error)}<form id="shelf-form" method="post" action="/books/${view.bookId}/shelf" style="margin: 0;">
<input type="hidden" name="shelf" value="">
<div id="toolbar" style="width: 546px; height: 28px; padding: 3px; background: #efe6d0; border: 1px solid #b9b0a0; border-bottom: none;">${tools}</div>
<table id="shelves" cellpadding="0" cellspacing="0" style="border-collapse: collapse; width: 554px;">
<tr style="background: #f6f1e4;"><th style="${CELL} text-align: left; color: ${ACCENT};">Shelf</th><th style="${CELL} text-align: left; color: ${ACCENT};">Location</th><th style="${CELL}">&nbsp;</th></tr>
${rows}
</table>
<p style="margin: 10px 0 0 0;">Selected shelf: <b id="selected-shelf">none</b></p>
<p style="margin: 6px 0 0 0; height: 16px;"><span id="shelf-status" role="status" style="color: #8a0000; font-weight: bold;"></span></p>
</form>
<script type="text/javascript">
var BOOK_ID = ${view.bookId};
var ICONS = ${scriptJson(view.icons)};
${SCRIPT}
</script>`;
  return layout(p, 'Place on a shelf', content, view.slowMs);
}
