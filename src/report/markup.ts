/**
 * HTML built safe by default: every value put into an `html` template is escaped, unless it is
 * markup made by `html` itself. Page-derived text (titles, labels, intents, error messages) can
 * only ever become text, never markup or script, however it is written.
 */
export class Markup {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Piece = Markup | string | number | boolean | null | undefined | readonly Piece[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (char) => ESCAPES[char]!);
}

function render(piece: Piece): string {
  if (piece instanceof Markup) return piece.text;
  if (piece === null || piece === undefined || piece === false) return '';
  if (Array.isArray(piece)) return piece.map(render).join('');
  return escapeHtml(String(piece));
}

export function html(strings: TemplateStringsArray, ...values: Piece[]): Markup {
  let out = strings[0]!;
  values.forEach((value, index) => {
    out += render(value) + strings[index + 1]!;
  });
  return new Markup(out);
}

/**
 * Data for the page's script, in a `<script type="application/json">` block: `<` is escaped so no
 * value can close the block, and the script reads it with JSON.parse, never as code.
 */
export function jsonForScript(value: unknown): Markup {
  return new Markup(JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029'));
}
