import { defineConfig } from 'tsup';

export default defineConfig({
  // `index`: the library (`runConformance`, the report formatters, the check list); `cli`: the
  // `memory-service-conformance` command, whose first line is the shebang.
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  clean: true,
  target: 'node22',
});
