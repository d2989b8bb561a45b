import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@memory-service/conformance',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Each test starts a real server and runs the whole kit against it (the packed one installs a tarball first).
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
