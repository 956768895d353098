import { test as base } from '@playwright/test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startIntakeApp, type IntakeApp } from '../../src/demo/app/server.js';
import { demoAgent } from '../../src/demo/demoAgent.js';
import { DEMO_PATIENTS, INTAKE_TASK, submissionProblems, type PatientParams } from '../../src/demo/patients.js';
import { Rote } from '../../src/rote.js';
import { openStore, type Store } from '../../src/store/store.js';
import { startedApp } from './appTest.js';

/** Patients for rows files: first and last names unique, every other value varied. */
export function patients(count: number): PatientParams[] {
  const states = ['California', 'Texas', 'New York', 'Oregon'];
  const plans = ['basic', 'standard', 'premium'];
  return Array.from({ length: count }, (_, i) => ({
    firstName: `Pat${String.fromCharCode(65 + (i % 26))}${i}`,
    lastName: `Row${i + 1}`,
    dob: `${String((i % 12) + 1).padStart(2, '0')}/${String((i % 27) + 1).padStart(2, '0')}/19${50 + (i % 40)}`,
    state: states[i % states.length]!,
    plan: plans[i % plans.length]!,
    reminders: i % 2 === 0,
    notes: `Note for row ${i + 1}`,
  }));
}

/** A CSV of patients with a header of the task's parameter names. */
export function patientsCsv(list: readonly PatientParams[]): string {
  const columns = Object.keys(list[0]!) as (keyof PatientParams)[];
  return `${[columns.join(','), ...list.map((patient) => columns.map((column) => String(patient[column])).join(','))].join('\n')}\n`;
}

/** The server's problems with each patient's submission: [] when every one arrived with its values. */
export function serverProblems(app: IntakeApp, list: readonly PatientParams[]): string[] {
  return list.flatMap((patient) => {
    const submission = app.submissions.findLast((candidate) => candidate.fields.first_name === patient.firstName && candidate.fields.last_name === patient.lastName);
    return submissionProblems(patient, submission).map((problem) => `${patient.firstName} ${patient.lastName}: ${problem}`);
  });
}

type Fixtures = {
  app: IntakeApp;
  /** A temporary folder for stores, rows files and locks, removed after the test. */
  dir: string;
  /** A store file with the intake task recorded once (the demo agent), and the app's records cleared. */
  recorded: { store: string; taskKey: string };
  /** Writes a file in `dir`, returning its path. */
  file: (name: string, text: string) => string;
};

export const test = base.extend<Fixtures>({
  app: startedApp(startIntakeApp),
  dir: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'rote-unattended-'));
    await use(dir);
    rmSync(dir, { recursive: true, force: true });
  },
  file: async ({ dir }, use) => {
    await use((name, text) => {
      const path = join(dir, name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      return path;
    });
  },
  recorded: async ({ app, dir, browser }, use) => {
    const store = join(dir, 'rote.db');
    const rote = await Rote.open({ store });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(app.url);
    // A declared type is stored with the task: later rows are checked against it before any run.
    const result = await rote.run(page, { task: INTAKE_TASK, params: DEMO_PATIENTS[0]!, schema: { reminders: 'boolean' }, agent: demoAgent(page) });
    await context.close();
    await rote.close();
    if (result.status !== 'agent') throw new Error(`the recording did not store a trajectory: ${result.status} ${result.error ?? ''}`);
    app.reset();
    await use({ store, taskKey: result.taskKey });
  },
});

/** Reads a store another process writes (WAL): its runs and slots, then closes it. */
export async function readStore<T>(path: string, read: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(path);
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}
