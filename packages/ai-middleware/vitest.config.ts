import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@memory-service/ai-middleware',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
