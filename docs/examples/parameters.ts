// Declared parameter types: every value is checked before any action.
declare const rote: import('rote').Rote;
declare const page: import('playwright').Page;
declare const agent: import('rote').Agent;

// #region docs
import { param, secret } from 'rote';

await rote.run(page, {
  task: 'Enroll {{customer}}',
  params: { customer: 'Ann Lee', dob: '1990-04-01', at: '20:04', state: 'CA', shift: 'evening', newsletter: true, password: secret('hunter2') },
  schema: {
    dob: param.date(),                         // YYYY-MM-DD or a Date
    at: param.time(),                          // 24-hour HH:MM
    state: param.enum(['CA', 'NY', 'TX']),
    newsletter: param.boolean(),
    country: param.string().default('USA'),    // .optional() without a value
    password: param.secret(),
  },
  agent,
});
// #endregion
