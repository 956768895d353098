/**
 * The three-page insurance claim wizard of the benchmark: policy lookup, claim details, review.
 *
 * Where each perturbation applies (on every load of those pages while it is set):
 * slowRender, liveClock, rotatingBanner, layoutShift, theme: every page; popupOnLoad: the policy
 * lookup page (page 1) only; popupOnFocus: the pages with text fields (lookup and details);
 * renamedLabel: "Policy number" reads "Policy no." on page 1; swappedButtons, requiredField and
 * confirmDialog: the review page.
 */
import { FORM_PERTURBATIONS, type BenchAppSpec } from '../contract.js';
import { claimAgent } from './agent.js';
import { claimBaseline } from './baseline.js';
import { claimParams, verifyClaim } from './params.js';
import { startClaimApp } from './server.js';

export const claimSpec: BenchAppSpec = {
  name: 'claim',
  task: 'File a {{incidentType}} claim on policy {{policyNumber}}',
  perturbations: FORM_PERTURBATIONS,
  start: () => startClaimApp(),
  params: claimParams,
  agent: claimAgent,
  baseline: claimBaseline,
  verify: verifyClaim,
};
