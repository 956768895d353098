// rote's fixture options in a project's playwright.config.ts.
// #region docs
import { defineConfig } from '@playwright/test';
import type { RoteTestOptions } from 'rote/test';

export default defineConfig<RoteTestOptions>({
  use: { rote: { store: '.rote/test.db', mode: 'replay-only', recordings: 'recordings' } },
});
// #endregion
