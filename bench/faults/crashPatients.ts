import { DEMO_PATIENTS, SCHEDULE_PATIENTS, submissionProblems, type PatientParams } from '../../src/demo/patients.js';
import type { Submission } from '../../src/demo/app/server.js';

/** The values crashed runs submit: a submission must be exactly one of them, or it is wrong. */
export const CRASH_PATIENTS: readonly PatientParams[] = [...DEMO_PATIENTS, ...SCHEDULE_PATIENTS];

/** Submissions that hold no patient's values exactly: what a crash must never produce. */
export function wrongSubmissions(submissions: readonly Submission[]): number {
  return submissions.filter((submission) => !CRASH_PATIENTS.some((patient) => submissionProblems(patient, submission).length === 0)).length;
}
