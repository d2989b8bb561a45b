import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node22',
  // `import.meta.url` in the CommonJS build (the docs page resolves swagger-ui-dist with it).
  shims: true,
});
