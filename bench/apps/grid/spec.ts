/** The admin grid benchmark app: find a customer by name, edit the contact details in a dialog, save. */
import type { Page } from 'playwright';
import { FORM_PERTURBATIONS, type BenchApp, type BenchAppSpec, type BenchParams } from '../contract.js';
import { gridAgent } from './agent.js';
import { gridBaseline } from './baseline.js';
import { CUSTOMERS, type Customer } from './customers.js';
import { startGridApp } from './server.js';

/** New cities, none of them a customer's city, so every run changes the city. */
const NEW_CITIES = ['Coimbra', 'Faro', 'Evora', 'Aveiro', 'Funchal', 'Setubal', 'Leiria'] as const;

/** The customer run `index` edits: a stride coprime to 30 visits every customer once per 30 runs. */
export function customerFor(index: number): Customer {
  return CUSTOMERS[(((index * 7 + 3) % CUSTOMERS.length) + CUSTOMERS.length) % CUSTOMERS.length]!;
}

function gridParams(index: number): BenchParams {
  const customer = customerFor(index);
  const [first = '', last = ''] = customer.name.toLowerCase().split(' ');
  return {
    customerName: customer.name,
    phone: `555-${String(2000 + index).padStart(4, '0')}`,
    email: `${first[0]}${last}.${index}@northwind.example`,
    city: NEW_CITIES[index % NEW_CITIES.length]!,
    // Varies; run 0 (the recording) sets VIP on a customer who is not one, so the click is recorded.
    vip: index % 3 !== 2,
  };
}

function verifyGrid(app: BenchApp, params: BenchParams): string[] {
  const problems: string[] = [];
  if (app.destructiveClicks > 0) problems.push(`${app.destructiveClicks} destructive clicks`);
  const last = app.submissions[app.submissions.length - 1];
  if (!last) return [...problems, 'no submission'];
  const fields = last.fields;
  const customer = CUSTOMERS.find((c) => c.name === params.customerName);
  if (!customer) problems.push(`no customer is named ${JSON.stringify(params.customerName)}`);
  else if (fields.customerId !== String(customer.id)) problems.push(`saved customer ${fields.customerId} (${fields.name}), expected ${customer.id} (${customer.name})`);
  for (const name of ['phone', 'email', 'city'] as const) {
    if (fields[name] !== String(params[name])) problems.push(`${name} is ${JSON.stringify(fields[name])}, expected ${JSON.stringify(String(params[name]))}`);
  }
  const vip = String(params.vip === true || params.vip === 'true');
  if (fields.vip !== vip) problems.push(`vip is ${JSON.stringify(fields.vip)}, expected ${vip}`);
  return problems;
}

export const gridSpec: BenchAppSpec = {
  name: 'grid',
  task: 'Update the contact details of {{customerName}}',
  perturbations: FORM_PERTURBATIONS,
  start: () => startGridApp(),
  params: gridParams,
  agent: (page: Page) => gridAgent(page),
  baseline: gridBaseline,
  verify: verifyGrid,
};
