import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node22',
  // ky 2 is ESM-only, and esbuild's CommonJS interop turns `import ky from 'ky'` into the module namespace under
  // require(esm), which has no `create`. So the CommonJS build carries its own copy of ky (MIT, banner kept);
  // the ESM build imports the `ky` dependency as usual.
  noExternal: ['ky'],
  esbuildPlugins: [
    {
      name: 'ky-external-in-esm',
      setup(build) {
        if (build.initialOptions.format === 'esm') {
          build.onResolve({ filter: /^ky$/ }, () => ({ path: 'ky', external: true }));
        }
      },
    },
  ],
});
