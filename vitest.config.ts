import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    setupFiles: ['platform/src/testing/vitest-setup.ts'],
    include: ['*/test/**/*.spec.ts'],
    exclude: ['**/node_modules/**', 'console/test/browser/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
