// An Agent is a policy the engine asks for the next actions; it never drives the page itself.
// #region docs
import type { Agent } from 'rote';

// Clicks the button at the bottom of the form once, then says the task is done.
export const clickSubmit: Agent = {
  name: 'click-submit',
  async next(observation) {
    if (observation.history.some((step) => step.kind === 'agent')) return { done: true };
    return { actions: [{ type: 'click', x: 640, y: 720 }], intent: 'Submit the form' };
  },
};
// #endregion
