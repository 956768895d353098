/**
 * The long intake form: a legacy patient-registration page with text fields, a date typed as
 * MM/DD/YYYY, a state select, insurance radios, two checkboxes and notes, then Save and Delete.
 */
import type { BenchApp, BenchAppSpec, BenchParams } from '../contract.js';
import { FORM_PERTURBATIONS } from '../contract.js';
import { intakeAgent } from './agent.js';
import { intakeBaseline } from './baseline.js';
import { FIELDS, expectedFieldValue } from './fields.js';
import { intakeParams } from './params.js';
import { startIntakeApp } from './server.js';

/** What is wrong with the app's last submission for `params`; empty when the task succeeded. */
export function verifyIntake(app: BenchApp, params: BenchParams): string[] {
  const problems: string[] = [];
  const last = app.submissions[app.submissions.length - 1];
  if (!last) problems.push('no submission');
  else {
    for (const field of FIELDS) {
      const value = params[field.param];
      if (value === undefined) continue;
      const expected = expectedFieldValue(field, value);
      const got = last.fields[field.name];
      if (got === expected) continue;
      const show = (v: string | undefined) => (v === undefined ? 'absent' : JSON.stringify(v));
      problems.push(`${field.name}: expected ${show(expected)}, got ${show(got)}`);
    }
  }
  if (app.destructiveClicks > 0) problems.push(`${app.destructiveClicks} destructive click${app.destructiveClicks === 1 ? '' : 's'}`);
  return problems;
}

export const intakeSpec: BenchAppSpec = {
  name: 'intake',
  task: 'Register patient {{firstName}} {{lastName}}',
  perturbations: FORM_PERTURBATIONS,
  start: startIntakeApp,
  params: intakeParams,
  agent: intakeAgent,
  baseline: intakeBaseline,
  verify: verifyIntake,
};
