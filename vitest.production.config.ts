import { defineConfig } from 'vitest/config';

/**
 * The production shape test (deploy/test/production): deploy/scripts/production.sh starts nginx,
 * the services, Kafka and a PostgreSQL replica, and the test breaks them under load. Run by
 * .ci/run after the other tests (`npm run test:production`); it needs root, nginx and PostgreSQL.
 */
export default defineConfig({
  test: {
    setupFiles: ['platform/src/testing/vitest-setup.ts'],
    include: ['deploy/test/production/**/*.spec.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
