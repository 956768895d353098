import { describe, expect, it } from 'vitest';
import { compareUrls } from './urlCheck.js';

describe('compareUrls', () => {
  it('matches with the query in any order', () => {
    expect(compareUrls('http://a.test/p?x=1&y=2', 'http://a.test/p?y=2&x=1#frag')).toBeNull();
  });
  it('never matches another origin', () => {
    expect(compareUrls('http://a.test/p', 'http://evil.test/p')).toContain('another origin');
  });
  it('reports another path or query', () => {
    expect(compareUrls('http://a.test/p', 'http://a.test/q')).toBe('the page is at /q, recorded at /p');
    expect(compareUrls('http://a.test/p?x=1', 'http://a.test/p?x=2')).toContain('query');
  });
});
