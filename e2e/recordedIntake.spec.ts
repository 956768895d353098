import { expect, test } from './intakeApp.js';

const grace = { firstName: 'Grace', lastName: 'Hopper', dob: '12/09/1906', state: 'New York', plan: 'basic', reminders: true, notes: 'Bring previous X-rays' };

test('the committed intake recording replays on the demo app with new values', async ({ intakeApp, page, rote }) => {
  await page.goto(intakeApp.url);
  const result = await rote.run({ recording: 'intake', params: grace });
  expect(result).toBeReplayed();
  expect(intakeApp.submissions[0]?.fields).toMatchObject({ first_name: 'Grace', last_name: 'Hopper', state: 'NY', plan: 'basic' });
});
