import { DEMO_PATIENTS, SCHEDULE_PATIENTS, submissionProblems, type PatientParams } from '../../src/demo/patients.js';
import type { Submission } from '../../src/demo/app/server.js';

/** The values crashed runs submit: a submission must be exactly one of them, or it is wrong. */
export const CRASH_PATIENTS: readonly PatientParams[] = [...DEMO_PATIENTS, ...SCHEDULE_PATIENTS];

/**
 * The values of the load phase's runs, which run beside the crashes on the same app: none of them
 * a crash patient, so the load can count its own submissions patient by patient.
 */
export const LOAD_PATIENTS: readonly PatientParams[] = [
  { firstName: 'Margaret', lastName: 'Hamilton', dob: '08/17/1936', state: 'Texas', plan: 'standard', reminders: true, notes: 'Night shift worker' },
  { firstName: 'Dennis', lastName: 'Ritchie', dob: '09/09/1941', state: 'New York', plan: 'premium', reminders: true, notes: 'Allergic to latex' },
  { firstName: 'Radia', lastName: 'Perlman', dob: '12/18/1951', state: 'Oregon', plan: 'basic', reminders: true, notes: 'Prefers email' },
  { firstName: 'Ken', lastName: 'Thompson', dob: '02/04/1943', state: 'California', plan: 'standard', reminders: true, notes: 'Needs an interpreter' },
  { firstName: 'Hedy', lastName: 'Lamarr', dob: '11/09/1914', state: 'California', plan: 'premium', reminders: true, notes: 'Evening visits' },
  { firstName: 'Tim', lastName: 'Berners-Lee', dob: '06/08/1955', state: 'Texas', plan: 'basic', reminders: true, notes: 'Bring lab results' },
  { firstName: 'Sophie', lastName: 'Wilson', dob: '06/01/1957', state: 'Oregon', plan: 'premium', reminders: true, notes: 'Left-handed' },
  { firstName: 'Niklaus', lastName: 'Wirth', dob: '02/15/1934', state: 'New York', plan: 'standard', reminders: true, notes: 'Second opinion' },
];

/** Submissions that hold no patient's values exactly: what no run, crashed or not, may produce. */
export function wrongSubmissions(submissions: readonly Submission[]): number {
  const patients = [...CRASH_PATIENTS, ...LOAD_PATIENTS];
  return submissions.filter((submission) => !patients.some((patient) => submissionProblems(patient, submission).length === 0)).length;
}
