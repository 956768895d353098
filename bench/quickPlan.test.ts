import { describe, expect, it } from 'vitest';
import { PERTURBATIONS, type PerturbationName } from './apps/contract.js';
import { SPECS } from './apps/specs.js';
import { quickPlan } from './quickPlan.js';

describe('quickPlan', () => {
  it('meets every perturbation exactly once, on an app that has it, the shares within one of each other', () => {
    const plan = quickPlan(SPECS);
    const met = [...plan.values()].flat();
    expect([...met].sort()).toEqual(Object.keys(PERTURBATIONS).sort());
    for (const spec of SPECS) {
      for (const perturbation of plan.get(spec.name)!) expect(spec.perturbations).toContain(perturbation);
    }
    const shares = [...plan.values()].map((list) => list.length);
    expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
  });

  it('gives a perturbation only one app has to that app', () => {
    const only: PerturbationName[] = ['renamedRowHeader', 'shuffledIcons', 'progressJumps'];
    const plan = quickPlan([
      { name: 'intake', perturbations: ['slowRender', 'theme', 'liveClock'] },
      { name: 'catalog', perturbations: ['slowRender', ...only] },
    ]);
    expect(plan.get('catalog')).toEqual(only);
    expect(plan.get('intake')).toEqual(['slowRender', 'theme', 'liveClock']);
  });
});
