/** Parameter values and the check of the server's record against them. */
import type { BenchApp, BenchParams } from '../contract.js';
import { FIELD_OF_PARAM, INCIDENT_TYPES, incidentTypeByLabel, POLICIES } from './data.js';

const DESCRIPTIONS = [
  'Rear bumper dented by another car while parked on Elm Street',
  'Car stolen from the driveway overnight, police report filed',
  'Engine compartment fire after a short circuit on the highway',
  'Flooded underground garage soaked the interior and carpets',
  'Side mirror knocked off by a passing delivery truck',
  'Hail cracked the windshield and dented the roof panel',
  'Low-speed collision at a roundabout, front grille broken',
  'Catalytic converter cut out while parked at the station',
  'Burst pipe in the garage ceiling flooded the footwells',
  'Tree branch fell on the hood during the storm last night',
];

const DAY_MS = 24 * 60 * 60 * 1000;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** Run `index`'s values: a policy from the table (with its holder's last name), and the claim. */
export function claimParams(index: number): BenchParams {
  if (!Number.isInteger(index) || index < 0) throw new Error(`claim params: index must be a non-negative integer, got ${index}`);
  const policy = POLICIES[(index * 7) % POLICIES.length]!;
  const date = new Date(Date.UTC(2025, 0, 15) - index * 9 * DAY_MS);
  const cents = 125_000 + index * 13_735;
  return {
    policyNumber: policy.number,
    lastName: policy.lastName,
    incidentDate: `${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}/${date.getUTCFullYear()}`,
    claimAmount: `${Math.floor(cents / 100)}.${pad(cents % 100)}`,
    incidentType: INCIDENT_TYPES[index % INCIDENT_TYPES.length]!.label,
    description: DESCRIPTIONS[index % DESCRIPTIONS.length]!,
    certify: true,
  };
}

/** What is wrong with the last submission, compared with `params`; empty when it is right. */
export function verifyClaim(app: BenchApp, params: BenchParams): string[] {
  const problems: string[] = [];
  const last = app.submissions[app.submissions.length - 1];
  if (!last) {
    problems.push('no submission');
  } else {
    const text = (name: string) => String(params[name] ?? '');
    const expected: Record<string, string> = {
      [FIELD_OF_PARAM.policyNumber]: text('policyNumber'),
      [FIELD_OF_PARAM.lastName]: text('lastName'),
      [FIELD_OF_PARAM.incidentDate]: text('incidentDate'),
      [FIELD_OF_PARAM.claimAmount]: text('claimAmount'),
      [FIELD_OF_PARAM.incidentType]: incidentTypeByLabel(text('incidentType'))?.code ?? `(no type labelled "${text('incidentType')}")`,
      [FIELD_OF_PARAM.description]: text('description'),
      [FIELD_OF_PARAM.certify]: params.certify === true || text('certify') === 'true' ? 'yes' : 'no',
    };
    for (const [field, want] of Object.entries(expected)) {
      const got = last.fields[field];
      if (got !== want) problems.push(`${field}: expected ${JSON.stringify(want)}, got ${got === undefined ? 'nothing' : JSON.stringify(got)}`);
    }
  }
  if (app.destructiveClicks > 0) problems.push(`${app.destructiveClicks} destructive click${app.destructiveClicks === 1 ? '' : 's'}`);
  return problems;
}
