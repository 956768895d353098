import type { Page } from 'playwright';
import type { Agent, AgentAnswer, DialogAnswer, NativeDialog, Observation } from '../../src/agent/agent.js';

/**
 * An ordinary Agent standing in for a model on the corpus pages: each call asks the page's oracle
 * (window.__plan, which reads only the live DOM) what to do next. A native prompt is answered by
 * `answerPrompt` (default: OK with the text it offers).
 */
export function oracleAgent(page: Page, options: { answerPrompt?: (dialog: NativeDialog, params: Record<string, string>) => DialogAnswer } = {}): Agent & { readonly calls: number; readonly observations: Observation[] } {
  const observations: Observation[] = [];
  return {
    name: 'corpus oracle (scripted, reads the DOM)',
    get calls() {
      return observations.length;
    },
    observations,
    async next(observation: Observation): Promise<AgentAnswer> {
      observations.push(observation);
      if (observation.dialog) return { actions: [], dialog: options.answerPrompt?.(observation.dialog, observation.params) ?? { accept: true }, intent: 'Answer the prompt' };
      const expression = `window.__plan(${JSON.stringify(observation.params)})`;
      for (let attempt = 0; ; attempt++) {
        try {
          return (await page.evaluate(expression)) as AgentAnswer;
        } catch (error) {
          // Asked while a navigation is under way: read the new page.
          if (attempt >= 3) throw error;
          await page.waitForLoadState('load').catch(() => undefined);
        }
      }
    },
  };
}
