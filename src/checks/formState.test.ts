import { describe, expect, it } from 'vitest';
import { formDifference } from './formState.js';

describe('a form sent from the cache', () => {
  const recorded = [
    { key: 'input:text:subject:1', state: 'empty' },
    { key: 'input:checkbox:urgent:1', state: 'off' },
    { key: 'select:one::1', state: 'choice 0' },
  ];

  it('is sent when every control was found as when recorded', () => {
    expect(formDifference(recorded, recorded)).toBeUndefined();
  });

  it('is not sent when a control was found in another state, named by kind and name', () => {
    const live = recorded.map((control) => (control.key.startsWith('input:checkbox') ? { ...control, state: 'on' } : control));
    expect(formDifference(recorded, live)).toContain('checkbox "urgent" is on (was off)');
    const chosen = recorded.map((control) => (control.key.startsWith('select') ? { ...control, state: 'choice 2' } : control));
    expect(formDifference(recorded, chosen)).toContain('unnamed select number 1 is choice 2 (was choice 0)');
  });

  it('compares only controls found both times: one added since says nothing', () => {
    const live = [{ key: 'input:checkbox:urgent:1', state: 'off' }, { key: 'input:checkbox:copy:1', state: 'on' }];
    expect(formDifference(recorded, live)).toBeUndefined();
  });
});
