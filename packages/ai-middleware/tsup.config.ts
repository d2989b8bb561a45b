import { defineConfig } from 'tsup';

export default defineConfig({
  // `format` is the context formatter alone (no AI SDK), for browsers and scripts.
  entry: ['src/index.ts', 'src/format.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node22',
});
