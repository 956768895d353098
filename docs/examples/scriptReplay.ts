// The replay of getting-started.md, from a script: the task recorded with `rote record`, run again
// with other values on the same page, with no agent (a step that cannot be shown safe ends the run).
// #region docs
import { Rote, launchBrowser } from 'rote';

const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.goto('http://127.0.0.1:3000/intake');

const rote = await Rote.open();                   // the same store rote record wrote: .rote/rote.db
const result = await rote.run(page, {
  task: 'Register patient {{firstName}} {{lastName}} in the intake form',
  params: { firstName: 'Grace', lastName: 'Hopper' },
});
console.log(result.status, `${result.cachedSteps} steps from the cache, ${result.agentCalls} agent calls`);
await rote.close();
await browser.close();
// #endregion
