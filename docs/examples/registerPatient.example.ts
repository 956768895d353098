// A recording under recordings/ as a regression test in Playwright Test.
// #region docs
import { test, expect } from 'rote/test';

const grace = { firstName: 'Grace', lastName: 'Hopper', dob: '12/09/1906', state: 'New York', plan: 'basic', reminders: true, notes: '' };

test('register a patient', async ({ page, rote }) => {
  await page.goto('http://localhost:3000/intake');
  const result = await rote.run({ recording: 'intake', params: grace });
  expect(result).toBeReplayed();
});
// #endregion
