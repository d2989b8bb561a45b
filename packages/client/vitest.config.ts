import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@memory-service/client',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
