import { expect } from '@playwright/test';
import { appTest } from './support/appTest.js';
import { startChoicesApp, type ChoiceEvent } from './support/choicesApp.js';

/**
 * Values set by clicks, not typed: a stepper's arrows, a calendar's month arrows and day, a list's
 * entry. Every change is saved by the page at once, so a click that sets the recording's value
 * under another value is a wrong action even if the agent undoes it later. Recorded with one value
 * and met with others, no such click runs: the run hands over at the first click that works the
 * value, the agent's path is learned for the new value, and then every value replays on its own.
 */
const test = appTest(startChoicesApp);

type Widget = { path: string; task: string; param: string; values: [string, string, string]; wrong: (events: ChoiceEvent[], value: string) => string[]; done: string };

/** Changes that move a number away from the one wanted. */
function awayFrom(values: number[], wanted: number): number {
  let away = 0;
  for (let index = 1; index < values.length; index++) if (Math.abs(values[index]! - wanted) > Math.abs(values[index - 1]! - wanted)) away++;
  return away;
}

const WIDGETS: Widget[] = [
  {
    path: '/stepper',
    task: 'Reorder {{quantity}} toner cartridges',
    param: 'quantity',
    values: ['4', '2', '6'],
    done: 'confirm',
    wrong: (events, value) => {
      const sets = events.filter((event) => event.kind === 'set').map((event) => Number(event.value));
      return [...(awayFrom([0, ...sets], Number(value)) > 0 ? [`the quantity was moved away from ${value}: ${sets.join(', ')}`] : []), ...events.filter((event) => event.kind === 'confirm' && event.value !== value).map((event) => `confirmed ${event.value}`)];
    },
  },
  {
    path: '/calendar',
    task: 'Book the service visit on {{visit}}',
    param: 'visit',
    values: ['2025-02-11', '2025-02-25', '2025-04-03'],
    done: 'book',
    wrong: (events, value) => {
      const month = (text: string) => Number(text.slice(0, 4)) * 12 + Number(text.slice(5, 7));
      const months = [month('2025-01'), ...events.filter((event) => event.kind === 'month').map((event) => month(event.value))];
      return [
        ...(awayFrom(months, month(value)) > 0 ? ['the calendar was moved away from the month wanted'] : []),
        ...events.filter((event) => (event.kind === 'set' || event.kind === 'book') && event.value !== value).map((event) => `${event.kind} ${event.value}`),
      ];
    },
  },
  {
    path: '/country',
    task: 'Set the supplier country to {{country}}',
    param: 'country',
    values: ['Norway', 'Chile', 'Japan'],
    done: 'save',
    wrong: (events, value) => events.filter((event) => (event.kind === 'set' || event.kind === 'save') && event.value !== value).map((event) => `${event.kind} ${event.value}`),
  },
];

for (const widget of WIDGETS) {
  test(`${widget.path}: no click that sets the recorded value runs under another value; each learned value replays`, async ({ app, runOn }) => {
    const run = async (value: string) => {
      app.mark();
      const result = await runOn(widget.path, { task: widget.task, params: { [widget.param]: value } });
      const events = app.since();
      expect(widget.wrong(events, value), `${value}: ${JSON.stringify(events)}`).toEqual([]);
      expect(events.filter((event) => event.kind === widget.done), `${value}: ${result.status} ${result.error ?? ''}`).toEqual([{ page: widget.path, kind: widget.done, value }]);
      return result;
    };
    expect((await run(widget.values[0])).status).toBe('agent');
    for (const value of widget.values.slice(1)) {
      const met = await run(value);
      // Handed over before the first click: the first step of the recording already works the value.
      expect(met.divergences[0], value).toMatchObject({ step: 0, reason: expect.stringMatching(new RegExp(`this step sets parameter "${widget.param}" by clicking`)) });
    }
    for (const value of [...widget.values, ...widget.values]) {
      const again = await run(value);
      expect({ value, status: again.status, agentCalls: again.agentCalls }).toEqual({ value, status: 'replayed', agentCalls: 0 });
    }
  });
}
