import { test as base } from '../fixtures.js';
import { requestTimeline, startFakeOpenAI, type FakeOpenAI } from './fakeOpenAI.js';
import { OutputCapture } from './outputCapture.js';

/**
 * The demo-app fixtures plus a fake OpenAI server that accepts `apiKey` (its request timeline is
 * attached to a failing test) and a capture of console output, stopped even after a timeout.
 */
export function testWithFakeModel(apiKey: string) {
  return base.extend<{ fake: FakeOpenAI; output: OutputCapture }>({
    fake: async ({}, use, testInfo) => {
      const fake = await startFakeOpenAI({ apiKey });
      await use(fake);
      await fake.close();
      if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('model requests', { body: requestTimeline(fake), contentType: 'text/plain' });
    },
    output: async ({}, use) => {
      const capture = new OutputCapture();
      await use(capture);
      capture.stop();
    },
  });
}
