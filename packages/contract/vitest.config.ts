import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@memory-service/contract',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
