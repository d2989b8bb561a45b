// esbuild bundles the stylesheet that main.tsx imports into the console's one CSS file.
declare module '*.css';
