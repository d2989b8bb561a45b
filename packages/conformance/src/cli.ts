#!/usr/bin/env node
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { formatGroupHeading, formatResult, formatSummary } from './format.js';
import { checkGroups } from './groups/index.js';
import { runConformance } from './run-conformance.js';
import { TOOL_NAME, TOOL_VERSION } from './version.js';

const USAGE = `Usage: ${TOOL_NAME} <baseUrl> --key <apiKey> [--admin-token <token>] [--json <file>] [--only <group,...>]

Black-box checks of the memory service HTTP contract v1 (and MCP at /api/mcp) against a running server.
The run writes only in two tenants of its own (conformance-<time>-<random>) and cleans up after itself.

Options:
  --key <apiKey>          an API key of the server (default: $MEMORY_API_KEY)
  --admin-token <token>   the management credential of /management/keys (default: $MEMORY_ADMIN_TOKEN);
                          without it the key checks are reported as skipped
  --json <file>           also write the report as JSON ('-' writes it to stdout, the text report to stderr)
  --only <group,...>      run only these groups (setup and cleanup always run)
  --no-color              no ANSI colours
  --list                  list the groups and exit
  -h, --help              this help; -v, --version the version

Exit status: 0 when every check passed (skips allowed), 1 when one failed, 2 on a usage error.

Groups:
${checkGroups.map((group) => `  ${group.id.padEnd(11)} ${group.summary}`).join('\n')}
`;

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (values.version) {
    process.stdout.write(`${TOOL_VERSION}\n`);
    return 0;
  }
  if (values.list) {
    for (const group of checkGroups) process.stdout.write(`${group.id}\t${group.summary}\n`);
    return 0;
  }
  const baseUrl = positionals[0] ?? process.env.MEMORY_BASE_URL;
  const apiKey = values.key ?? process.env.MEMORY_API_KEY;
  const adminToken = values['admin-token'] ?? process.env.MEMORY_ADMIN_TOKEN;
  if (baseUrl === undefined || apiKey === undefined || apiKey === '') {
    process.stderr.write(`${baseUrl === undefined ? 'a base URL' : 'an API key (--key)'} is required\n\n${USAGE}`);
    return 2;
  }
  const jsonToStdout = values.json === '-';
  const out = jsonToStdout ? process.stderr : process.stdout;
  const color = !values['no-color'] && out.isTTY === true && process.env.NO_COLOR === undefined;
  let group: string | undefined;
  out.write(`${TOOL_NAME} ${TOOL_VERSION}: checking ${baseUrl}\n`);
  let report: Awaited<ReturnType<typeof runConformance>>;
  try {
    report = await runConformance({
      baseUrl,
      apiKey,
      ...(adminToken ? { adminToken } : {}),
      ...(values.only === undefined
        ? {}
        : {
            only: values.only
              .split(',')
              .map((id) => id.trim())
              .filter(Boolean),
          }),
      onResult: (result) => {
        if (result.group !== group) out.write(`\n${formatGroupHeading(result.group, { color })}\n`);
        group = result.group;
        out.write(`${formatResult(result, { color })}\n`);
      },
    });
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  out.write(
    `\nTenants used (disabled at the end): ${report.namespace.tenantIds.join(', ')}\n${formatSummary(report, { color })}\n`,
  );
  if (values.json !== undefined) {
    const json = `${JSON.stringify(report, null, 2)}\n`;
    if (jsonToStdout) process.stdout.write(json);
    else await writeFile(values.json, json);
  }
  return report.summary.failed > 0 ? 1 : 0;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      key: { type: 'string' },
      'admin-token': { type: 'string' },
      json: { type: 'string' },
      only: { type: 'string' },
      'no-color': { type: 'boolean' },
      list: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 2;
  },
);
