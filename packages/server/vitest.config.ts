import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@memory-service/server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
