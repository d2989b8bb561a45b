import { defineConfig } from 'tsup';

export default defineConfig({
  // Worker threads are entries of their own, built beside the bundles that spawn them (src/spawn-worker.ts).
  entry: {
    index: 'src/index.ts',
    cli: 'src/cli.ts',
    'database-worker': 'src/workers/database-worker.ts',
    'inference-worker': 'src/workers/inference-worker.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node22',
  // `import.meta.url` in the CommonJS build (the docs page resolves swagger-ui-dist with it).
  shims: true,
});
