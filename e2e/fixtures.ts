import { test as base, type Page } from '@playwright/test';
import { startIntakeApp, type IntakeApp } from '../src/demo/app/server.js';
import { demoAgent } from '../src/demo/demoAgent.js';
import { DEMO_PATIENTS, INTAKE_TASK, type PatientParams } from '../src/demo/patients.js';
import type { RunResult } from '../src/engine/runResult.js';
import type { RunOptions } from '../src/engine/runOptions.js';
import type { Rote } from '../src/rote.js';
import { memoryRote, startedApp } from './support/appTest.js';

type Fixtures = {
  /** The legacy intake app, fresh for each test, on 127.0.0.1. */
  app: IntakeApp;
  /** rote on an in-memory store with the real migrations. */
  rote: Rote;
  /** Opens the intake form in a new page of the test's context. */
  openForm: () => Promise<Page>;
  /** Records the intake task once with the demo agent (a miss), then clears the server's records. */
  recordIntake: (patient?: PatientParams) => Promise<RunResult>;
  /** Runs the intake task on a fresh page with these values. */
  runIntake: (patient: PatientParams, options?: Partial<RunOptions>) => Promise<{ page: Page; result: RunResult }>;
};

export const test = base.extend<Fixtures>({
  app: startedApp(startIntakeApp),
  rote: memoryRote,
  openForm: async ({ context, app }, use) => {
    await use(async () => {
      const page = await context.newPage();
      await page.goto(app.url);
      return page;
    });
  },
  runIntake: async ({ rote, openForm }, use) => {
    await use(async (patient, options = {}) => {
      const page = await openForm();
      const result = await rote.run(page, { task: INTAKE_TASK, params: patient, agent: demoAgent(page), ...options });
      return { page, result };
    });
  },
  recordIntake: async ({ app, runIntake }, use) => {
    await use(async (patient = DEMO_PATIENTS[0]!) => {
      const { page, result } = await runIntake(patient);
      await page.close();
      app.reset();
      return result;
    });
  },
});

export { expect } from '@playwright/test';
export { DEMO_PATIENTS, INTAKE_TASK };
