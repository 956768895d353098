// The first replay: a run of a task with this run's values, an agent standing by.
declare const agent: import('rote').Agent;   // any Agent: agents.md

// #region docs
import { Rote, launchBrowser } from 'rote';

const browser = await launchBrowser();            // finds Chromium (docs/browser-and-store.md)
const page = await browser.newPage();
await page.goto('https://intake.example.test/form');

const rote = await Rote.open();                   // .rote/rote.db (WAL); { store: ':memory:' } for tests
const result = await rote.run(page, {
  task: 'Register patient {{firstName}} {{lastName}}',
  params: { firstName: 'Ada', lastName: 'Lovelace', dob: '12/10/1815', reminders: true },
  agent,                                          // any Agent: asked only where the cache cannot go
});
console.log(result.status, result.cachedSteps, result.agentCalls);
await rote.close();
// #endregion
