import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@memory-service/console',
    // Browser tests in test/, unit tests of browser code beside it in src/.
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // One real server and one real Chromium for the whole file; starting both on a loaded 2-core machine takes time.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
