// Builds the console into the server package (packages/server/console/): index.html, and under assets/ one
// JavaScript bundle, one stylesheet and the icon, each named by a hash of its content so the server can cache
// them for good. Nothing is fetched at run time: every dependency is bundled.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const packageDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where packages/server/src/console.ts looks for the console. */
const outputDirectory = path.resolve(packageDirectory, '../server/console');
const assetsDirectory = path.join(outputDirectory, 'assets');
/** The URL the server serves `assets/` at. */
const ASSETS_URL = '/console/assets';

function hashOf(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 10);
}

async function bundle(): Promise<{ script: string; stylesheet: string }> {
  const result = await esbuild.build({
    absWorkingDir: packageDirectory,
    entryPoints: { console: 'src/main.tsx' },
    outdir: assetsDirectory,
    entryNames: '[name]-[hash]',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome111', 'firefox115', 'safari16.4'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    metafile: true,
    legalComments: 'eof',
    // The client loads the MCP SDK only for transport 'mcp', which the console never uses.
    external: ['@modelcontextprotocol/client'],
    logLevel: 'warning',
  });
  const outputs = Object.entries(result.metafile.outputs);
  const entry = outputs.find(([, output]) => output.entryPoint === 'src/main.tsx');
  if (entry === undefined || entry[1].cssBundle === undefined) throw new Error('esbuild made no script or stylesheet');
  const nodeImports = Object.keys(result.metafile.inputs).filter((input) => input.startsWith('node:'));
  if (nodeImports.length > 0) throw new Error(`the console bundle imports Node modules: ${nodeImports.join(', ')}`);
  return { script: path.basename(entry[0]), stylesheet: path.basename(entry[1].cssBundle) };
}

async function copyHashed(source: string): Promise<string> {
  const content = await readFile(path.join(packageDirectory, source));
  const { name, ext } = path.parse(source);
  const fileName = `${name}-${hashOf(content)}${ext}`;
  await writeFile(path.join(assetsDirectory, fileName), content);
  return fileName;
}

async function main(): Promise<void> {
  await rm(outputDirectory, { recursive: true, force: true });
  await mkdir(assetsDirectory, { recursive: true });
  const { script, stylesheet } = await bundle();
  const favicon = await copyHashed('src/favicon.svg');
  const template = await readFile(path.join(packageDirectory, 'src/index.html'), 'utf8');
  const html = template
    .replace('%SCRIPT%', `${ASSETS_URL}/${script}`)
    .replace('%STYLESHEET%', `${ASSETS_URL}/${stylesheet}`)
    .replace('%FAVICON%', `${ASSETS_URL}/${favicon}`);
  await writeFile(path.join(outputDirectory, 'index.html'), html);
  const size = (await readFile(path.join(assetsDirectory, script))).length;
  process.stdout.write(
    `console: ${path.relative(process.cwd(), outputDirectory)} (${script}, ${Math.round(size / 1024)} KB)\n`,
  );
}

await main();
