import { describe, expect, it } from 'vitest';
import { BoundParams } from '../params/boundParams.js';
import { endUrlHolds } from './fork.js';

describe('an end beside a step at a fork', () => {
  const at = (url: string) => ({ page: { url: () => url }, params: BoundParams.none });

  it('is an option only where the page is on the URL the recorded run ended on', () => {
    const end = { state: { endUrl: 'http://127.0.0.1:3000/done?id=17' } };
    expect(endUrlHolds(end, at('http://127.0.0.1:3000/done?id=42'))).toBe(true);
    expect(endUrlHolds(end, at('http://127.0.0.1:3000/form'))).toBe(false);
    expect(endUrlHolds({ state: {} }, at('http://127.0.0.1:3000/form'))).toBe(true);
  });
});
