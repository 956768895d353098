import { describe, expect, it } from 'vitest';
import { bindParams } from './params.js';
import { secret } from './secret.js';
import { shownForms } from './shownForms.js';

describe('shownForms', () => {
  it('lists each value and the forms a page may show it in, never a secret', () => {
    const forms = shownForms(bindParams({ dob: '1990-04-01', at: '20:04', password: secret('hunter2'), empty: '' }, 't'));
    expect(forms).toEqual(expect.arrayContaining(['1990-04-01', '04/01/1990', 'April 1, 1990', '20:04', '8:04 PM']));
    expect(forms.some((form) => form.includes('hunter2'))).toBe(false);
    expect(forms).not.toContain('');
  });
});
