import { defineConfig } from 'vitest/config';

/** The browser tests: real Chromium against the portal started as `npm start` starts it. */
export default defineConfig({
  test: {
    setupFiles: ['platform/src/testing/vitest-setup.ts'],
    include: ['console/test/browser/**/*.spec.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
