/** The benchmark's apps, in the order the benchmark runs them. */
import { catalogSpec } from './catalog/spec.js';
import { claimSpec } from './claim/spec.js';
import type { BenchAppSpec } from './contract.js';
import { gridSpec } from './grid/spec.js';
import { intakeSpec } from './intake/spec.js';

export const SPECS: readonly BenchAppSpec[] = [intakeSpec, claimSpec, gridSpec, catalogSpec];
