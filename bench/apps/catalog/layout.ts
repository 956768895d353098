/**
 * The library catalogue's chrome and shared styles: an old "LibCat" screen, table layout, inline
 * styles and scripts, no framework. The header has a fixed height and the clock and the banner
 * float inside it, so switching them on moves nothing below.
 */
import { escapeHtml, PAGE_FONT, pageHead } from '../../../src/demo/app/html.js';
import type { PerturbationName } from '../contract.js';
import { darkTheme, layoutShiftNotice, liveClock, rotatingBanner, slowRender } from '../perturbationHtml.js';

export type P = PerturbationName | null;

export const BUTTON = 'height: 26px; padding: 0 12px; font-size: 12px; font-family: Verdana, Arial, sans-serif; background: #e6e1d6; border: 1px solid #7d7566; color: #000;';
export const TEXT_INPUT = 'height: 20px; border: 1px solid #7d7566; padding: 1px 4px; font-size: 13px; font-family: Verdana, Arial, sans-serif; background: #ffffff; color: #000;';
export const ACCENT = '#5b2a2a';

/** JSON safe inside a <script> element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

export function heading(text: string): string {
  return `<h1 style="font-size: 17px; margin: 2px 0 6px 0; color: ${ACCENT}; font-family: Georgia, 'Times New Roman', serif;">${escapeHtml(text)}</h1>`;
}

export function errorBox(message: string | undefined): string {
  if (!message) return '';
  return `<div role="alert" style="margin: 4px 0 8px 0; padding: 5px 10px; border: 1px solid #a00000; background: #fbeaea; color: #8a0000; font-weight: bold;">${escapeHtml(message)}</div>`;
}

/** The "Step n of 3" strip, the current step in bold. */
export function steps(current: 1 | 2 | 3): string {
  const names = ['Book details', 'Shelf', 'Indexing'];
  return `<p style="margin: 0 0 6px 0; font-size: 11px; color: #6b6255;">${names
    .map((name, i) => (i + 1 === current ? `<span style="font-weight: bold; color: #000;">${i + 1}. ${name}</span>` : `${i + 1}. ${name}`))
    .join(' &nbsp;&raquo;&nbsp; ')}</p>`;
}

/**
 * The page around `content`: every perturbation that belongs to the frame (clock, banner,
 * notice, theme, slow rendering) is applied here; `overlays` (popups) go at the end of the body.
 */
export function layout(p: P, title: string, content: string, slowMs: number, overlays = ''): string {
  const clock = p === 'liveClock' ? `<div style="position: absolute; right: 12px; top: 12px; width: 70px; font-size: 12px;">${liveClock()}</div>` : '';
  const banner = p === 'rotatingBanner' ? `<div style="position: absolute; right: 12px; top: 10px; width: 250px; color: #333333;">${rotatingBanner()}</div>` : '';
  return `${pageHead(`${title} - LibCat`)}
${p === 'theme' ? darkTheme() : ''}
</head>
<body style="margin: 0; padding: 0; background: #cfc8b8; color: #000000; ${PAGE_FONT}">
${p === 'layoutShift' ? layoutShiftNotice() : ''}<table width="800" cellpadding="0" cellspacing="0" border="0" align="center" style="margin: 12px auto 0 auto; background: #fffdf7; border: 1px solid #7d7566;">
<tr><td style="background: ${ACCENT}; padding: 0;"><div style="position: relative; height: 42px; color: #f6ecd6;">
<div style="position: absolute; left: 14px; top: 11px; font-size: 16px; font-weight: bold; font-family: Georgia, 'Times New Roman', serif;">Riverside Public Library &mdash; Catalogue</div>
${clock}${banner}</div></td></tr>
<tr><td style="background: #efe6d0; padding: 4px 14px; font-size: 11px; border-bottom: 1px solid #7d7566;">Search &nbsp;|&nbsp; Loans &nbsp;|&nbsp; <b>Acquisitions</b> &nbsp;|&nbsp; Members &nbsp;|&nbsp; Reports &nbsp;|&nbsp; Log off</td></tr>
<tr><td style="padding: 10px 18px 16px 18px;">
${p === 'slowRender' ? slowRender(content, slowMs) : content}
</td></tr>
<tr><td style="background: #eeeae0; border-top: 1px solid #7d7566; padding: 4px 14px; font-size: 10px; color: #555555;">LibCat 2.4 &nbsp;&middot;&nbsp; Staff terminal &nbsp;&middot;&nbsp; Cataloguing desk ext. 212</td></tr>
</table>
${overlays}</body>
</html>
`;
}
