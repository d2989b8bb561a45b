import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@memory-service/server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Tests start real servers and a real sqld; give hooks room on a loaded 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
