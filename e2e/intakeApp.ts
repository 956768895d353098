/**
 * rote/test's `test` with the demo intake app started for each test: what a project's own
 * fixture file looks like. `intakePerturbations` is an option, so a config (or test.use) can run
 * the same tests against the perturbed app.
 */
import { startIntakeApp, type IntakeApp, type Perturbations } from '../src/demo/app/server.js';
import { test as base } from '../src/test/index.js';

export const test = base.extend<{ intakeApp: IntakeApp; intakePerturbations: Partial<Perturbations> }>({
  intakePerturbations: [{}, { option: true }],
  intakeApp: async ({ intakePerturbations }, use) => {
    const app = await startIntakeApp({ perturbations: intakePerturbations });
    await use(app);
    await app.close();
  },
});

export { expect } from '../src/test/index.js';
