import { describe, expect, it } from 'vitest';
import { BoundParams } from '../params/boundParams.js';
import { compareUrls, templatedUrl } from './urlCheck.js';
import { isIdLike } from '../params/url.js';

describe('compareUrls', () => {
  it('matches with the query in any order', () => {
    expect(compareUrls('http://a.test/p?x=1&y=2', 'http://a.test/p?y=2&x=1#frag')).toBeNull();
  });
  it('never matches another origin', () => {
    expect(compareUrls('http://a.test/p', 'http://evil.test/p')).toContain('another origin');
  });
  it('reports another path or query', () => {
    expect(compareUrls('http://a.test/p', 'http://a.test/q')).toBe('the page is at /q, recorded at /p');
    expect(compareUrls('http://a.test/p?x=open', 'http://a.test/p?x=closed')).toContain('query');
  });
});

describe('URLs with parameter values and record ids', () => {
  it('templates path segments and query values equal to a parameter', () => {
    expect(templatedUrl('http://a.test/customers/Ana%20Silva/edit?q=Ana+Silva&page=2', BoundParams.of({ name: 'Ana Silva' }))).toBe(
      'http://a.test/customers/{{name}}/edit?q={{name}}&page=2',
    );
  });
  it('matches the same page for another record', () => {
    const recorded = templatedUrl('http://a.test/customers/42/edit?q=Ana+Silva', BoundParams.of({ name: 'Ana Silva' }));
    expect(compareUrls(recorded, 'http://a.test/customers/17/edit?q=Rui%20Costa', BoundParams.of({ name: 'Rui Costa' }))).toBeNull();
    expect(compareUrls(recorded, 'http://a.test/customers/17/edit?q=Ana+Silva', BoundParams.of({ name: 'Rui Costa' }))).toContain('query');
    expect(compareUrls(recorded, 'http://a.test/customers/new/edit?q=Rui+Costa', BoundParams.of({ name: 'Rui Costa' }))).toContain('/customers/new/edit');
  });
  it('treats only ids as interchangeable', () => {
    expect(isIdLike('42')).toBe(true);
    expect(isIdLike('3f2a9c1e-0b7d-4c1e-9f00-1a2b3c4d5e6f')).toBe(true);
    expect(isIdLike('edit')).toBe(false);
    expect(compareUrls('http://a.test/p/edit', 'http://a.test/p/delete')).toContain('recorded at /p/edit');
  });
});

describe('a search kept encoded inside another query value', () => {
  const recordedUrl = 'http://a.test/admin/customer/42/change/?_changelist_filters=q%3DFletcher%2BSmith%26o%3Dname';
  const recorded = templatedUrl(recordedUrl, BoundParams.of({ name: 'Fletcher Smith' }));
  it('templates the inner values, whole values only, and keeps the rest', () => {
    expect(recorded).toBe('http://a.test/admin/customer/42/change/?_changelist_filters=q%3D{{name}}%26o%3Dname');
    // A value that is only part of an inner value ("Fletcher" of "Fletcher Smith") is not templated.
    expect(templatedUrl(recordedUrl, BoundParams.of({ first: 'Fletcher' }))).toBe('http://a.test/admin/customer/42/change/?_changelist_filters=q%3DFletcher%2BSmith%26o%3Dname');
  });
  it("matches the page of this run's search, however the inner query is ordered or encoded", () => {
    const rowland = BoundParams.of({ name: 'Ann Rowland' });
    expect(compareUrls(recorded, 'http://a.test/admin/customer/7/change/?_changelist_filters=q%3DAnn%2BRowland%26o%3Dname', rowland)).toBeNull();
    expect(compareUrls(recorded, 'http://a.test/admin/customer/7/change/?_changelist_filters=o%3Dname%26q%3DAnn%2520Rowland', rowland)).toBeNull();
    // Encoded once only, as encodeURIComponent("q=Ann Rowland") writes it: the space is in the outer value.
    expect(compareUrls(recorded, 'http://a.test/admin/customer/7/change/?_changelist_filters=q%3DAnn%20Rowland%26o%3Dname', rowland)).toBeNull();
  });
  it('never keeps a secret standing inside an inner value, however deep its encoding', () => {
    const params = BoundParams.of({ name: 'John Fletcher', pw: 'p@ss w0rd' }, { secrets: ['pw'] });
    const stored = templatedUrl('http://a.test/c/?_changelist_filters=q%3DJohn%2BFletcher%26note%3Dhi%2520p%2540ss%2520w0rd', params);
    expect(stored).not.toMatch(/p%2540ss|p%40ss|p@ss|w0rd/);
    expect(stored).toContain('{{pw}}');
  });
  it("refuses another search, another inner key or a changed kept value", () => {
    const rowland = BoundParams.of({ name: 'Ann Rowland' });
    expect(compareUrls(recorded, 'http://a.test/admin/customer/7/change/?_changelist_filters=q%3DFletcher%2BSmith%26o%3Dname', rowland)).toContain('query');
    expect(compareUrls(recorded, 'http://a.test/admin/customer/7/change/?_changelist_filters=q%3DAnn%2BRowland%26o%3Ddate', rowland)).toContain('query');
    expect(compareUrls(recorded, 'http://a.test/admin/customer/7/change/?_changelist_filters=q%3DAnn%2BRowland', rowland)).toContain('query');
    expect(compareUrls(recorded, 'http://a.test/admin/customer/7/change/?_changelist_filters=Ann%2BRowland', rowland)).toContain('query');
  });
});

describe('a URL that shows a value in the form it was typed in', () => {
  it('stands for the value, read back with its format, # and all', () => {
    const params = BoundParams.of({ amount: '1,234.50', start: '2024/01/15' });
    const recorded = templatedUrl('http://a.test/saved?start=01%2F15%2F2024&amount=1234.50', params);
    expect(recorded).toBe('http://a.test/saved?start={{start|from:date:YYYY/MM/DD|date:MM/DD/YYYY}}&amount={{amount|from:number:%23,%23%230.%23%23}}');
    expect(compareUrls(recorded, 'http://a.test/saved?start=12%2F02%2F2023&amount=12000', BoundParams.of({ amount: '12,000', start: '2023/12/02' }))).toBeNull();
    expect(compareUrls(recorded, 'http://a.test/saved?start=12%2F03%2F2023&amount=12000', BoundParams.of({ amount: '12,000', start: '2023/12/02' }))).not.toBeNull();
  });
});

describe('a URL part that only looks like a value in another case', () => {
  it('stays as it is', () => {
    expect(templatedUrl('http://a.test/books/new', BoundParams.of({ condition: 'NEW' }))).toBe('http://a.test/books/new');
  });
});
