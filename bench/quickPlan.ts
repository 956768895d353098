/**
 * Which perturbations each app meets in the quick run: every perturbation once, on one app that
 * has it, the apps' shares as even as the lists allow. A fixed stride over each app's own list
 * (index mod number of apps) stops covering everything as soon as the apps' lists differ.
 */
import { PERTURBATIONS, type BenchAppSpec, type PerturbationName } from './apps/contract.js';

export function quickPlan(specs: readonly Pick<BenchAppSpec, 'name' | 'perturbations'>[]): Map<BenchAppSpec['name'], PerturbationName[]> {
  const assigned = new Map<BenchAppSpec['name'], Set<PerturbationName>>(specs.map((spec) => [spec.name, new Set()]));
  const candidates = (Object.keys(PERTURBATIONS) as PerturbationName[])
    .map((perturbation) => ({ perturbation, apps: specs.filter((spec) => spec.perturbations.includes(perturbation)) }))
    .filter((entry) => entry.apps.length > 0);
  // The fewest choices first, so that a perturbation only one app has does not find that app full.
  candidates.sort((a, b) => a.apps.length - b.apps.length);
  for (const { perturbation, apps } of candidates) {
    const load = (spec: (typeof apps)[number]) => assigned.get(spec.name)!.size;
    const chosen = apps.reduce((best, spec) => (load(spec) < load(best) ? spec : best));
    assigned.get(chosen.name)!.add(perturbation);
  }
  // Each app meets its share in its own list's order.
  return new Map(specs.map((spec) => [spec.name, spec.perturbations.filter((p) => assigned.get(spec.name)!.has(p))]));
}
