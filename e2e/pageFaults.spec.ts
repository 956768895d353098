import { submissionProblems } from '../src/demo/patients.js';
import { DEMO_PATIENTS, expect, test } from './fixtures.js';

const [first, second] = DEMO_PATIENTS as [(typeof DEMO_PATIENTS)[0], (typeof DEMO_PATIENTS)[1]];

/** The page reloads itself once, just after the State is chosen: what was typed before is gone. */
const RELOAD_AFTER_STATE = `
  if (!sessionStorage.getItem('reloaded')) {
    document.addEventListener('change', function (event) {
      if (event.target && event.target.id === 'state') {
        sessionStorage.setItem('reloaded', '1');
        setTimeout(function () { location.reload(); }, 30);
      }
    }, true);
  }`;

test('a page that reloads itself between steps is not filled on from the cache: the rest would submit a half-empty form', async ({ app, context, recordIntake, runIntake }) => {
  await recordIntake(first);
  await context.addInitScript(RELOAD_AFTER_STATE);
  const replayOnly = await runIntake(second, { mode: 'replay-only' });
  expect(replayOnly.result.status).toBe('diverged');
  expect(replayOnly.result.error).toContain('loaded a new document');
  expect(app.submissions).toHaveLength(0);

  // With an agent, it takes over on the reloaded form and finishes it (no re-join: a jump ahead
  // on the cached path would skip the fields the reload emptied), and the submission is right.
  const takeover = await runIntake(second);
  expect(takeover.result.status).toBe('mixed');
  expect(app.submissions).toHaveLength(1);
  expect(submissionProblems(second, app.submissions[0])).toEqual([]);
});
