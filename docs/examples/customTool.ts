// A custom tool: code of your own that the agent calls and rote replays, with checks around it.
declare const rote: import('rote').Rote;
declare const api: { claim(id: string): Promise<{ amount: string }> };   // your own API client

// #region docs
import type { Check } from 'rote';

const sameAccountType: Check<string> = {
  capture: async ({ page }) => (await page.textContent('#account-type')) ?? '',
  compare: (current, recorded) => current === recorded,   // or a similarity from 0 to 1
  threshold: 0.9,                                          // for a similarity; default 0.9
};

rote.tool('fillPayment', async (args, { page }) => {
  const claim = await api.claim(String(args.claimId));
  await page.fill('#amount', claim.amount);
  return { amount: claim.amount };                         // shown to the agent, never stored
}, { description: 'Fills the payment from the claims API', preCheck: sameAccountType });   // postCheck too
// #endregion
