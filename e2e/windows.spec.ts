import { expect, type Page } from '@playwright/test';
import type { Agent, AgentAnswer, Observation } from '../src/agent/agent.js';
import type { RunResult } from '../src/engine/runResult.js';
import { appTest } from './support/appTest.js';
import { startAdminApp } from './support/adminApp.js';

/**
 * A Django-like admin: the edit page keeps the list's search encoded in its address, and a "+"
 * opens an add window that saves the new company, fills the select in the page that opened it
 * and closes itself. Recorded once, then replayed for other customers and new companies with no
 * agent call, every write right in the app's data.
 */
const test = appTest(startAdminApp);

/** The page's oracle, asked in the window the run is in: the one whose address the observation shows. */
function windowOracle(page: Page): Agent & { observations: Observation[] } {
  const observations: Observation[] = [];
  return {
    observations,
    async next(observation) {
      observations.push(observation);
      const open = page.context().pages().filter((candidate) => !candidate.isClosed() && candidate.url() === observation.url);
      const target = open.at(-1) ?? page;
      return (await target.evaluate(`window.__plan(${JSON.stringify(observation.params)})`)) as AgentAnswer;
    },
  };
}

function replayedFromCache(result: RunResult, what: string): void {
  expect(result.status, `${what}: ${result.error ?? ''} ${result.divergences.map((d) => d.reason).join('; ')}`).toBe('replayed');
  expect(result.agentCalls, what).toBe(0);
}

test('a search kept in the edit page address and a company added in a window the page opens: recorded once, replayed with new values', async ({ app, runOn }) => {
  const task = 'Set the phone of {{customer}} to {{phone}} and their company to the new company {{company}}';
  const agents: ReturnType<typeof windowOracle>[] = [];
  const agent = (page: Page) => {
    const made = windowOracle(page);
    agents.push(made);
    return made;
  };
  const change = async (customer: string, phone: string, company: string) => {
    const writes = app.writes.length;
    const result = await runOn('/customers/', { task, params: { customer, phone, company }, agent });
    const record = app.customers.find((candidate) => candidate.name === customer)!;
    const made = app.companies.find((candidate) => candidate.name === company);
    // Exactly one company and one customer written, with this run's values.
    expect(app.writes.slice(writes).map((write) => write.kind), customer).toEqual(['company', 'customer']);
    expect(made, company).toBeDefined();
    expect({ phone: record.phone, companyId: record.companyId }).toEqual({ phone, companyId: made!.id });
    return result;
  };

  const recorded = await change('John Fletcher', '555-7001', 'Globex');
  expect(recorded.status, recorded.error).toBe('agent');
  // The agent was told which window it acted in.
  const inWindow = agents[0]!.observations.filter((observation) => observation.window);
  expect(inWindow.length).toBeGreaterThan(0);
  expect(inWindow[0]!.window).toMatchObject({ index: 1, open: 1, title: 'Add company' });

  for (const [customer, phone, company] of [
    ['Ann Rowland', '555-7002', 'Umbrella'],
    ['Maria Costa', '555-7003', 'Stark Industries'],
    ['Lee Park', '555-7004', 'Wayne & Sons'],
  ] as const) {
    const result = await change(customer, phone, company);
    replayedFromCache(result, customer);
  }
});
