import packageJson from '../package.json' with { type: 'json' };
import { backupCommand } from './cli/backup-command.js';
import { type CliIo, describeFailure, EXIT_CODES, processIo, UsageError } from './cli/cli-io.js';
import { parseExpiresIn } from './cli/duration.js';
import { allowlistCommand, projectModelCommand, showEmbeddingsCommand } from './cli/embeddings-commands.js';
import { eraseUserCommand } from './cli/erase-command.js';
import { exportCommand, type TransferSelection } from './cli/export-command.js';
import { helpText } from './cli/help.js';
import { importCommand } from './cli/import-command.js';
import { createKeyCommand, listKeysCommand, revokeKeyCommand } from './cli/keys-commands.js';
import { type ParsedCommand, parseCommandArgs } from './cli/parse.js';
import { type PolicyChoice, setPolicyCommand, showPolicyCommand } from './cli/policy-commands.js';
import { restoreCommand } from './cli/restore-command.js';
import { startCommand } from './cli/start-command.js';
import { createWorkspaceCommand, listWorkspacesCommand } from './cli/workspaces-commands.js';
import type { Mem0ProjectSource } from './transfer/mem0.js';

export { type CliIo, EXIT_CODES, type TextSink } from './cli/cli-io.js';

function showHelp(io: CliIo, command: string): number {
  io.stdout.write(helpText(command));
  return EXIT_CODES.ok;
}

/** `--workspace <id>` of the keys commands (default: the default workspace). */
const WORKSPACE_OPTION = { workspace: { type: 'string' } } as const;

async function runWorkspaces(args: readonly string[], io: CliIo): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand === undefined) {
    io.stderr.write(helpText('workspaces'));
    return EXIT_CODES.usage;
  }
  if (subcommand === '-h' || subcommand === '--help' || subcommand === 'help') return showHelp(io, 'workspaces');
  switch (subcommand) {
    case 'create': {
      const parsed = parseCommandArgs(
        rest,
        'workspaces create',
        { 'expires-in': { type: 'string' } },
        { min: 1, max: 1, name: 'the workspace name' },
      );
      if (parsed.help) return showHelp(io, 'workspaces create');
      const expiresIn = parsed.strings['expires-in'];
      const expiresInMs = expiresIn === undefined ? undefined : parseExpiresIn(expiresIn);
      return createWorkspaceCommand(io, parsed.positionals[0] ?? '', expiresInMs);
    }
    case 'list': {
      if (parseCommandArgs(rest, 'workspaces list', {}, { min: 0, max: 0 }).help)
        return showHelp(io, 'workspaces list');
      return listWorkspacesCommand(io);
    }
    default:
      throw new UsageError(`unknown command 'workspaces ${subcommand}'`, 'workspaces');
  }
}

async function runKeys(args: readonly string[], io: CliIo): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand === undefined) {
    io.stderr.write(helpText('keys'));
    return EXIT_CODES.usage;
  }
  if (subcommand === '-h' || subcommand === '--help' || subcommand === 'help') return showHelp(io, 'keys');
  switch (subcommand) {
    case 'create': {
      const parsed = parseCommandArgs(
        rest,
        'keys create',
        { 'expires-in': { type: 'string' }, 'allow-rule-writes': { type: 'boolean' }, ...WORKSPACE_OPTION },
        { min: 0, max: 0 },
      );
      if (parsed.help) return showHelp(io, 'keys create');
      const expiresIn = parsed.strings['expires-in'];
      const expiresInMs = expiresIn === undefined ? undefined : parseExpiresIn(expiresIn);
      return createKeyCommand(io, expiresInMs, parsed.strings.workspace, {
        allowRuleWrites: parsed.booleans['allow-rule-writes'] === true,
      });
    }
    case 'list': {
      const parsed = parseCommandArgs(rest, 'keys list', WORKSPACE_OPTION, { min: 0, max: 0 });
      if (parsed.help) return showHelp(io, 'keys list');
      return listKeysCommand(io, parsed.strings.workspace);
    }
    case 'revoke': {
      const parsed = parseCommandArgs(rest, 'keys revoke', WORKSPACE_OPTION, { min: 1, max: 1, name: 'the key id' });
      if (parsed.help) return showHelp(io, 'keys revoke');
      return revokeKeyCommand(io, parsed.positionals[0] ?? '', parsed.strings.workspace);
    }
    default:
      throw new UsageError(`unknown command 'keys ${subcommand}'`, 'keys');
  }
}

async function runEmbeddings(args: readonly string[], io: CliIo): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand === undefined) {
    io.stderr.write(helpText('embeddings'));
    return EXIT_CODES.usage;
  }
  if (subcommand === '-h' || subcommand === '--help' || subcommand === 'help') return showHelp(io, 'embeddings');
  switch (subcommand) {
    case 'show': {
      if (parseCommandArgs(rest, 'embeddings show', {}, { min: 0, max: 0 }).help)
        return showHelp(io, 'embeddings show');
      return showEmbeddingsCommand(io);
    }
    case 'allow':
    case 'disallow': {
      const command = `embeddings ${subcommand}`;
      const parsed = parseCommandArgs(rest, command, {}, { min: 1, max: 1, name: 'the model id' });
      if (parsed.help) return showHelp(io, command);
      return allowlistCommand(io, parsed.positionals[0] ?? '', subcommand === 'allow');
    }
    case 'project': {
      const parsed = parseCommandArgs(
        rest,
        'embeddings project',
        { clear: { type: 'boolean' } },
        { min: 1, max: 2, name: 'the project id and model id' },
      );
      if (parsed.help) return showHelp(io, 'embeddings project');
      const [projectId = '', modelId] = parsed.positionals;
      const clear = parsed.booleans.clear === true;
      if (clear === (modelId !== undefined)) {
        throw new UsageError('give either a model id or --clear', 'embeddings project');
      }
      return projectModelCommand(io, projectId, clear ? null : (modelId ?? null));
    }
    default:
      throw new UsageError(`unknown command 'embeddings ${subcommand}'`, 'embeddings');
  }
}

/** `--tenant <id>` and `--workspace <id>` of the policy commands. */
const POLICY_OPTIONS = { tenant: { type: 'string' }, ...WORKSPACE_OPTION } as const;
const POLICY_CHOICES: readonly string[] = ['lexical', 'hybrid', 'auto'];

async function runPolicy(args: readonly string[], io: CliIo): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand === undefined) {
    io.stderr.write(helpText('policy'));
    return EXIT_CODES.usage;
  }
  if (subcommand === '-h' || subcommand === '--help' || subcommand === 'help') return showHelp(io, 'policy');
  switch (subcommand) {
    case 'show': {
      const parsed = parseCommandArgs(rest, 'policy show', POLICY_OPTIONS, { min: 0, max: 0 });
      if (parsed.help) return showHelp(io, 'policy show');
      return showPolicyCommand(io, { tenantId: parsed.strings.tenant, workspaceId: parsed.strings.workspace });
    }
    case 'set': {
      const parsed = parseCommandArgs(rest, 'policy set', POLICY_OPTIONS, { min: 1, max: 1, name: 'the strategy' });
      if (parsed.help) return showHelp(io, 'policy set');
      const choice = parsed.positionals[0] ?? '';
      if (!POLICY_CHOICES.includes(choice))
        throw new UsageError(`the strategy must be lexical, hybrid or auto, not '${choice}'`, 'policy set');
      return setPolicyCommand(io, choice as PolicyChoice, {
        tenantId: parsed.strings.tenant,
        workspaceId: parsed.strings.workspace,
      });
    }
    default:
      throw new UsageError(`unknown command 'policy ${subcommand}'`, 'policy');
  }
}

/** The options `export` and `import` share. */
const TRANSFER_OPTIONS = {
  workspace: { type: 'string' },
  tenant: { type: 'string' },
  'with-vectors': { type: 'boolean' },
} as const;

const MEM0_PROJECT_SOURCES: readonly Mem0ProjectSource[] = ['agent_id', 'app_id', 'run_id'];

function transferSelection(parsed: ParsedCommand): TransferSelection {
  return {
    workspace: parsed.strings.workspace,
    tenantId: parsed.strings.tenant,
    withVectors: parsed.booleans['with-vectors'] === true,
  };
}

async function dispatch(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
      io.stderr.write(helpText(''));
      return EXIT_CODES.usage;
    case '-h':
    case '--help':
      return showHelp(io, '');
    case 'help':
      return showHelp(io, rest.join(' '));
    case '-v':
    case '--version':
      io.stdout.write(`${packageJson.version}\n`);
      return EXIT_CODES.ok;
    case 'start': {
      if (parseCommandArgs(rest, 'start', {}, { min: 0, max: 0 }).help) return showHelp(io, 'start');
      return startCommand(io);
    }
    case 'keys':
      return runKeys(rest, io);
    case 'workspaces':
      return runWorkspaces(rest, io);
    case 'embeddings':
      return runEmbeddings(rest, io);
    case 'policy':
      return runPolicy(rest, io);
    case 'backup': {
      const parsed = parseCommandArgs(
        rest,
        'backup',
        { force: { type: 'boolean' } },
        { min: 1, max: 1, name: 'the backup folder' },
      );
      if (parsed.help) return showHelp(io, 'backup');
      return backupCommand(io, parsed.positionals[0] ?? '', parsed.booleans.force === true);
    }
    case 'restore': {
      const parsed = parseCommandArgs(
        rest,
        'restore',
        { force: { type: 'boolean' } },
        { min: 1, max: 1, name: 'the backup folder' },
      );
      if (parsed.help) return showHelp(io, 'restore');
      return restoreCommand(io, parsed.positionals[0] ?? '', parsed.booleans.force === true);
    }
    case 'export': {
      const parsed = parseCommandArgs(
        rest,
        'export',
        { ...TRANSFER_OPTIONS, force: { type: 'boolean' } },
        { min: 1, max: 1, name: 'the export file' },
      );
      if (parsed.help) return showHelp(io, 'export');
      return exportCommand(io, parsed.positionals[0] ?? '', {
        ...transferSelection(parsed),
        force: parsed.booleans.force === true,
      });
    }
    case 'import': {
      const parsed = parseCommandArgs(
        rest,
        'import',
        { ...TRANSFER_OPTIONS, 'mem0-project': { type: 'string' } },
        { min: 1, max: 1, name: 'the file to import' },
      );
      if (parsed.help) return showHelp(io, 'import');
      const mem0Project = parsed.strings['mem0-project'];
      if (mem0Project !== undefined && !MEM0_PROJECT_SOURCES.includes(mem0Project as Mem0ProjectSource)) {
        throw new UsageError(`--mem0-project must be agent_id, app_id or run_id, not '${mem0Project}'`, 'import');
      }
      return importCommand(io, parsed.positionals[0] ?? '', {
        ...transferSelection(parsed),
        mem0Project: mem0Project as Mem0ProjectSource | undefined,
      });
    }
    case 'erase-user': {
      const parsed = parseCommandArgs(
        rest,
        'erase-user',
        { tenant: { type: 'string' }, ...WORKSPACE_OPTION, yes: { type: 'boolean' } },
        { min: 1, max: 1, name: 'the userId' },
      );
      if (parsed.help) return showHelp(io, 'erase-user');
      return eraseUserCommand(io, parsed.positionals[0] ?? '', {
        workspace: parsed.strings.workspace,
        tenantId: parsed.strings.tenant,
        yes: parsed.booleans.yes === true,
      });
    }
    default:
      throw new UsageError(`unknown command '${command}'`);
  }
}

/**
 * Runs the `memory-service` command with `argv` (without `node` and the script) and returns its exit code:
 * 0 ok, 1 runtime error, 2 usage error. Output is for humans: no stack traces, no secrets except a newly
 * created key, printed once. `io` replaces the process streams, environment and signals (tests run it in-process).
 * @example process.exitCode = await runCli(process.argv.slice(2));
 */
export async function runCli(argv: readonly string[], io: Partial<CliIo> = {}): Promise<number> {
  const resolved: CliIo = { ...processIo(), ...io };
  try {
    return await dispatch(argv, resolved);
  } catch (error) {
    if (error instanceof UsageError) {
      const command = error.command === '' ? '' : ` ${error.command}`;
      resolved.stderr.write(
        `memory-service${command}: ${error.message}\nRun 'memory-service${command} --help' for usage.\n`,
      );
      return EXIT_CODES.usage;
    }
    resolved.stderr.write(`memory-service: ${describeFailure(error)}\n`);
    return EXIT_CODES.failure;
  }
}
