// A person does the task once in a browser window, as an ordinary Agent.
declare const rote: import('rote').Rote;
declare const page: import('playwright').Page;
declare const task: string;
declare const params: Record<string, string>;

// #region docs
import { PersonAgent } from 'rote';

const person = await PersonAgent.attach(page);   // before page.goto: it follows navigations
await page.goto('http://127.0.0.1:3000/intake');
const result = await rote.run(page, { task, params, agent: person, mode: 'record' });
// person.finish() / person.abort(); person.listening() resolves when it waits for input
// #endregion

console.log(result.status);
