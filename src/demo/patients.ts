import { asBoolean } from '../params/fold.js';
import { PLANS, STATES } from './app/pages.js';
import type { Submission } from './app/server.js';

/** The parameters of one intake: what the demo agent fills and what the server must receive. */
export type PatientParams = {
  firstName: string;
  lastName: string;
  dob: string;
  state: string;
  plan: string;
  reminders: boolean;
  notes: string;
};

export const INTAKE_TASK = 'Register patient {{firstName}} {{lastName}} in the intake form';

/** Four patients, one per demo run: every value differs from run to run. */
export const DEMO_PATIENTS: readonly PatientParams[] = [
  { firstName: 'Ada', lastName: 'Lovelace', dob: '12/10/1815', state: 'California', plan: 'standard', reminders: true, notes: 'Allergic to penicillin' },
  { firstName: 'Alan', lastName: 'Turing', dob: '06/23/1912', state: 'Texas', plan: 'premium', reminders: false, notes: 'Prefers morning visits' },
  { firstName: 'Grace', lastName: 'Hopper', dob: '12/09/1906', state: 'New York', plan: 'basic', reminders: true, notes: 'Bring previous X-rays' },
  { firstName: 'Edsger', lastName: 'Dijkstra', dob: '05/11/1930', state: 'Oregon', plan: 'premium', reminders: false, notes: 'Call before noon' },
];

/** Six more, for the scheduled demo's rows file: none of them the recorded patient. */
export const SCHEDULE_PATIENTS: readonly PatientParams[] = [
  { firstName: 'Katherine', lastName: 'Johnson', dob: '08/26/1918', state: 'Oregon', plan: 'basic', reminders: true, notes: 'Needs a wheelchair' },
  { firstName: 'Claude', lastName: 'Shannon', dob: '04/30/1916', state: 'Texas', plan: 'standard', reminders: false, notes: 'Speaks French' },
  { firstName: 'Barbara', lastName: 'Liskov', dob: '11/07/1939', state: 'California', plan: 'premium', reminders: true, notes: 'First visit' },
  { firstName: 'Donald', lastName: 'Knuth', dob: '01/10/1938', state: 'New York', plan: 'basic', reminders: false, notes: 'Bring insurance card' },
  { firstName: 'Frances', lastName: 'Allen', dob: '08/04/1932', state: 'Oregon', plan: 'standard', reminders: true, notes: 'Morning only' },
  { firstName: 'John', lastName: 'Backus', dob: '12/03/1924', state: 'Texas', plan: 'premium', reminders: false, notes: 'Hard of hearing' },
];

/** The form fields the server should have received for these parameters. */
export function expectedFields(params: PatientParams): Record<string, string> {
  const state = STATES.find((candidate) => candidate.name === params.state || candidate.code === params.state);
  const plan = PLANS.find((candidate) => candidate.value === params.plan || candidate.label === params.plan);
  const fields: Record<string, string> = {
    first_name: params.firstName,
    last_name: params.lastName,
    dob: params.dob,
    state: state?.code ?? params.state,
    plan: plan?.value ?? params.plan,
    notes: params.notes,
  };
  if (params.reminders || asBoolean(String(params.reminders)) === true) fields.reminders = 'yes';
  return fields;
}

/** The differences between what the server received and what was expected; empty when they agree. */
export function submissionProblems(params: PatientParams, submission: Submission | undefined): string[] {
  if (!submission) return ['the server received no submission'];
  const expected = expectedFields(params);
  const names = new Set([...Object.keys(expected), ...Object.keys(submission.fields)]);
  return [...names]
    .filter((name) => (expected[name] ?? '') !== (submission.fields[name] ?? ''))
    .map((name) => `${name}: expected ${JSON.stringify(expected[name] ?? '')}, received ${JSON.stringify(submission.fields[name] ?? '')}`);
}
