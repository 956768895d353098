import { describe, expect, it } from 'vitest';
import { compareUrls, templatedUrl } from '../checks/urlCheck.js';
import { bindParams } from './params.js';
import { redactSecrets, secret, SECRET_MASK } from './secret.js';
import { hideSecrets, renderTemplate, templatize } from './template.js';
import { normalizeUrl, urlRenderingParams } from './url.js';

const VALUE = 'hunter?2 x';
const bound = (value = VALUE) => bindParams({ user: 'ada', password: secret(value) }, 'test');
/** The value as URLs carry it: percent-encoded, form-encoded (+ for a space), lower-case hex. */
const ENCODED = [encodeURIComponent(VALUE), new URLSearchParams({ v: VALUE }).toString().slice(2), 'hunter%3f2%20x', '%68unter?2+x'];

function holdsSecret(text: string): boolean {
  return [VALUE, ...ENCODED].some((form) => text.includes(form)) || text.includes('hunter');
}

describe('a secret in encoded forms', () => {
  it('is masked in results and logs', () => {
    const params = bound();
    for (const form of ENCODED) expect(redactSecrets(`GET http://a.test/?pw=${form}&u=ada`, params)).toBe(`GET http://a.test/?pw=${SECRET_MASK}&u=ada`);
    // An accessible name collapses runs of spaces; the value is still found.
    expect(redactSecrets('Log in as hunter?2   x', params)).toBe(`Log in as ${SECRET_MASK}`);
  });

  it('is hidden from stored text as its placeholder', () => {
    const params = bound();
    for (const form of ENCODED) expect(hideSecrets(`open /reset?token=${form}`, params).template).toBe('open /reset?token={{password}}');
    expect(templatize(`goto http://a.test/?pw=${ENCODED[0]}`, params).template).toBe('goto http://a.test/?pw={{password}}');
  });

  it('is hidden from recorded URLs in the query, inside a query value and in a path segment', () => {
    const params = bound();
    const cases: [string, string][] = [
      [`http://a.test/login?pw=${ENCODED[1]}&u=ada`, 'http://a.test/login?pw={{password}}&u={{user}}'],
      [`http://a.test/login?q=user+${ENCODED[0]}`, 'http://a.test/login?q=user%20{{password}}'],
      [`http://a.test/u/${ENCODED[0]}/edit`, 'http://a.test/u/{{password}}/edit'],
      [`http://a.test/u/x${ENCODED[2]}y/edit`, 'http://a.test/u/x{{password}}y/edit'],
    ];
    for (const [url, template] of cases) {
      const recorded = templatedUrl(url, params);
      expect(recorded).toBe(template);
      // The same page with this run's values, and with another secret, still matches.
      expect(compareUrls(recorded, url, params)).toBeNull();
    }
    const other = bound('n3w&pw');
    expect(compareUrls(templatedUrl(`http://a.test/login?q=user+${ENCODED[0]}`, params), `http://a.test/login?q=user+${encodeURIComponent('n3w&pw')}`, other)).toBeNull();
    expect(compareUrls(templatedUrl(`http://a.test/login?q=user+${ENCODED[0]}`, params), 'http://a.test/login?q=user+wrong', other)).toContain('query');
  });

  it('is never part of a start URL kept with the task', () => {
    const key = normalizeUrl(`http://a.test/login?q=user+${ENCODED[0]}&next=/u/x${ENCODED[1]}`, bound());
    expect(holdsSecret(key)).toBe(false);
    expect(key).toContain('{{password}}');
  });

  it('is put back encoded when a goto URL is rendered, so its meaning is kept', () => {
    const params = bound('n3w&pw#1');
    const template = 'http://a.test/login?pw={{password}}&u={{user}}';
    const url = renderTemplate(template, urlRenderingParams(template, params));
    expect(url).toBe('http://a.test/login?pw=n3w%26pw%231&u=ada');
    expect(new URL(url).searchParams.get('pw')).toBe('n3w&pw#1');
    // A template that is the whole URL is rendered as it is.
    expect(renderTemplate('{{password}}', urlRenderingParams('{{password}}', params))).toBe('n3w&pw#1');
  });
});

describe('a secret holding a percent sign', () => {
  it('is masked whole in its encoded form', () => {
    const params = bound('x7 pw%');
    expect(redactSecrets(`?t=${encodeURIComponent('x7 pw%')}&u=1`, params)).toBe(`?t=${SECRET_MASK}&u=1`);
  });
});

describe('hiding a secret next to a formatted placeholder', () => {
  it('leaves the placeholder and its format alone', () => {
    const params = bindParams({ password: secret('date') }, 'test');
    expect(hideSecrets('{{dob|date:MM/DD/YYYY}} date', params).template).toBe('{{dob|date:MM/DD/YYYY}} {{password}}');
  });
});
