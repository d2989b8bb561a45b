import { defineConfig } from 'vitest/config';

// One Vitest run over every package; each package's vitest.config.ts names its project.
export default defineConfig({
  test: {
    projects: ['packages/*'],
    // 2-core machines: keep parallelism modest.
    maxWorkers: 2,
  },
});
