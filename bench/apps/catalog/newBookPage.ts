/**
 * Page 1, "New book": three unlabelled inputs known only by their row header, in a random order
 * under random opaque names on every load; a Publisher input known only by its placeholder; an
 * ISBN input known only by its id, a few pixels lower or higher on every load; the labelled
 * "Acquisition" fields, filled from values as users have them (see data.ts).
 */
import { escapeHtml } from '../../../src/demo/app/html.js';
import { popupOnFocus, popupOnLoad } from '../perturbationHtml.js';
import { ACQUISITION_FIELDS, CONDITION_OPTIONS, ISBN_INPUT_ID, ISBN_INPUT_NAME, LOAD_INPUT_NAME, LOANABLE_OPTIONS, PUBLISHER_INPUT_NAME, RENAMED_ROW_HEADER, ROW_HEADERS, type AcquisitionParam, type DetailField } from './data.js';
import { BUTTON, errorBox, heading, layout, steps, TEXT_INPUT, type P } from './layout.js';

export type BookValues = Partial<Record<DetailField | 'publisher' | 'isbn' | AcquisitionParam, string>>;

/** What one load of the page is: the server keeps it under `token` to decode the submission. */
export type NewBookView = {
  token: string;
  /** The detail rows in this load's order, each under this load's opaque input name. */
  rows: readonly { field: DetailField; name: string }[];
  /** The ISBN input's extra top margin, 0 to 20 px. */
  isbnOffsetPx: number;
  slowMs: number;
  /** Values shown again when the server sends the page back with an error. */
  values?: BookValues;
  error?: string;
};

const CELL_BORDER = 'border: 1px solid #b9b0a0;';

function header(p: P, field: DetailField): string {
  return p === 'renamedRowHeader' && field === RENAMED_ROW_HEADER.field ? RENAMED_ROW_HEADER.to : ROW_HEADERS[field];
}

function value(values: BookValues | undefined, key: keyof BookValues): string {
  const text = values?.[key];
  return text ? ` value="${escapeHtml(text)}"` : '';
}

export function newBookPage(p: P, view: NewBookView): string {
  // Same height, same input, same width on every row: the order is all that changes.
  const rows = view.rows
    .map(
      (row) =>
        `<tr><th style="width: 110px; height: 32px; padding: 0 10px; text-align: left; font-weight: normal; background: #f6f1e4; ${CELL_BORDER}">${escapeHtml(header(p, row.field))}</th>` +
        `<td style="padding: 0 8px; ${CELL_BORDER}"><input type="text" name="${row.name}" maxlength="80" autocomplete="off" style="${TEXT_INPUT} width: 300px;"${value(view.values, row.field)}></td></tr>`,
    )
    .join('\n');
  const content = `${steps(1)}
${heading('New book')}
<p style="margin: 0 0 8px 0; font-size: 11px; color: #444444;">Enter the details exactly as they are printed on the title page. Every field is required.</p>
${errorBox(view.error)}<form id="book-form" method="post" action="/books" style="margin: 0;">
<input type="hidden" name="${LOAD_INPUT_NAME}" value="${escapeHtml(view.token)}">
<table cellpadding="0" cellspacing="0" style="border-collapse: collapse; width: 470px;">
<caption style="caption-side: top; text-align: left; padding: 4px 10px; background: #efe6d0; ${CELL_BORDER} border-bottom: none; font-weight: bold;">Book details</caption>
${rows}
</table>
<fieldset style="width: 446px; margin: 12px 0 0 0; padding: 6px 10px 4px 10px; ${CELL_BORDER}">
<legend style="padding: 0 4px; font-weight: bold;">Publisher and ISBN</legend>
<div style="height: 30px;"><input type="text" name="${PUBLISHER_INPUT_NAME}" placeholder="Publisher" maxlength="80" autocomplete="off" style="${TEXT_INPUT} width: 300px;"${value(view.values, 'publisher')}></div>
<div style="height: 44px;"><input type="text" id="${ISBN_INPUT_ID}" name="${ISBN_INPUT_NAME}" maxlength="20" autocomplete="off" style="${TEXT_INPUT} display: block; width: 170px; margin-top: ${view.isbnOffsetPx}px;"${value(view.values, 'isbn')}></div>
</fieldset>
${acquisition(view.values)}
<div style="margin: 12px 0 0 0;"><input type="submit" id="next-button" value="Next" style="${BUTTON} width: 90px;"></div>
</form>`;
  const overlays = (p === 'popupOnLoad' ? popupOnLoad() : '') + (p === 'popupOnFocus' ? popupOnFocus() : '');
  return layout(p, 'New book', content, view.slowMs, overlays);
}

function acquisition(values: BookValues | undefined): string {
  const rows = ACQUISITION_FIELDS.map((field) => {
    const id = `acq-${field.name}`;
    const chosen = values?.[field.param];
    let control: string;
    switch (field.control) {
      case 'text':
        control = `<input type="text" id="${id}" name="${field.name}" maxlength="40" autocomplete="off" style="${TEXT_INPUT} width: ${field.param === 'copy' ? 40 : 150}px;"${value(values, field.param)}>`;
        break;
      case 'date':
      case 'time':
        control = `<input type="${field.control}" id="${id}" name="${field.name}" style="${TEXT_INPUT} width: 150px;"${value(values, field.param)}>`;
        break;
      case 'select': {
        const options = field.param === 'loanable' ? LOANABLE_OPTIONS : CONDITION_OPTIONS;
        control = `<select id="${id}" name="${field.name}" style="${TEXT_INPUT} height: 24px; width: 160px;"><option value="">(choose)</option>${options.map((option) => `<option value="${option.value}"${chosen === option.value ? ' selected' : ''}>${escapeHtml(option.label)}</option>`).join('')}</select>`;
        break;
      }
    }
    return `<div style="height: 28px;"><label for="${id}" style="display: inline-block; width: 190px;">${escapeHtml(field.label)}</label>${control}</div>`;
  }).join('\n');
  return `<fieldset style="width: 446px; margin: 10px 0 0 0; padding: 6px 10px 4px 10px; border: 1px solid #b9b0a0;">
<legend style="padding: 0 4px; font-weight: bold;">Acquisition</legend>
${rows}
</fieldset>`;
}
