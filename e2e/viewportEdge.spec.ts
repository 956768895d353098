import { expect } from '@playwright/test';
import { appTest } from './support/appTest.js';
import { startChoicesApp } from './support/choicesApp.js';

/**
 * A field at the bottom edge of a small viewport, recorded there, then met a few pixels lower: the
 * crop around it reaches past the viewport. The part inside is compared (which element it is, its
 * identity already says), so the replay goes on without the agent; a field mostly out of view
 * still hands over, and the agent is told why.
 */
const test = appTest(startChoicesApp);
test.use({ viewport: { width: 560, height: 250 } });

test('a target whose crop reaches past the viewport is compared on the part inside, not handed over', async ({ app, runOn }) => {
  const task = 'Subscribe {{email}} to the newsletter';
  // The field's box ends about 11 px above the viewport's bottom: its crop (6 px around it) fits when recorded.
  const recorded = await runOn('/subscribe?top=135', { task, params: { email: 'first@example.test' } });
  expect(recorded.status, recorded.error).toBe('agent');
  for (const [top, index] of [[139, 1], [141, 2], [143, 3], [145, 4]] as const) {
    app.mark();
    const email = `reader${index}@example.test`;
    const replay = await runOn(`/subscribe?top=${top}`, { task, params: { email } });
    expect({ top, status: replay.status, agentCalls: replay.agentCalls, error: replay.error }).toEqual({ top, status: 'replayed', agentCalls: 0, error: undefined });
    expect(app.since()).toEqual([{ page: '/subscribe', kind: 'join', value: email }]);
  }
});

test('a target mostly out of view hands over, and the observation says why', async ({ app, runOn }) => {
  const task = 'Subscribe {{email}} to the newsletter';
  await runOn('/subscribe?top=135', { task, params: { email: 'first@example.test' } });
  const reasons: (string | undefined)[] = [];
  app.mark();
  const result = await runOn('/subscribe?top=400', {
    task,
    params: { email: 'second@example.test' },
    agent: (page) => ({
      async next(observation) {
        reasons.push(observation.divergence?.reason);
        if (reasons.length === 1) return { actions: [{ type: 'scroll', x: 100, y: 100, scroll_x: 0, scroll_y: 400 }], intent: 'Scroll to the form' };
        return page.evaluate(`window.__plan(${JSON.stringify(observation.params)})`) as never;
      },
    }),
  });
  expect(result.agentCalls).toBeGreaterThan(0);
  expect(reasons[0]).toBeTruthy();
  expect(result.divergences[0]?.reason).toBe(reasons[0]);
  expect(app.since()).toEqual([{ page: '/subscribe', kind: 'join', value: 'second@example.test' }]);
});
