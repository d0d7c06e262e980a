import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    setupFiles: ['platform/src/testing/vitest-setup.ts'],
    // Tests live in each workspace's test/, or beside what they test (deciders, projections).
    include: ['*/test/**/*.spec.ts', '*/src/**/*.spec.ts'],
    exclude: ['**/node_modules/**', 'console/test/browser/**', 'deploy/test/production/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
