import { describe, expect, it } from 'vitest';
import { html, jsonForScript } from './markup.js';

describe('html', () => {
  it('escapes every interpolated value, in text and in attributes', () => {
    const title = `<script>alert(1)</script><img src=x onerror="alert(2)">`;
    const out = html`<h1 title="${title}">${title}</h1>`.text;
    expect(out).not.toContain('<script>');
    expect(out).not.toContain('<img');
    expect(out).not.toMatch(/title="[^"]*"[^>]/);
    expect(out).toBe(
      '<h1 title="&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&quot;alert(2)&quot;&gt;">&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&quot;alert(2)&quot;&gt;</h1>',
    );
  });

  it('keeps markup made by html, and joins lists', () => {
    const items = ['a<b', 'c'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>`.text).toBe('<ul><li>a&lt;b</li><li>c</li></ul>');
  });

  it('leaves out null, undefined and false', () => {
    expect(html`${null}${undefined}${false}${0}`.text).toBe('0');
  });
});

describe('jsonForScript', () => {
  it('cannot close the script block it sits in', () => {
    const out = jsonForScript({ name: '</script><script>alert(1)</script>' }).text;
    expect(out).not.toContain('</script>');
    expect(JSON.parse(out)).toEqual({ name: '</script><script>alert(1)</script>' });
  });
});
