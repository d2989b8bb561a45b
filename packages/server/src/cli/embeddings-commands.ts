import type { Services } from '../services.js';
import { DEFAULT_OWNER_ID } from '../store/control-store.js';
import { CliFailure, type CliIo, EXIT_CODES } from './cli-io.js';
import { withServices } from './keys-commands.js';

function requireKnownModel(services: Services, modelId: string): void {
  const registry = services.embeddings;
  if (!registry.has(modelId)) {
    const known = registry
      .list()
      .map((model) => model.id)
      .join(', ');
    throw new CliFailure(`'${modelId}' is not a registered embedding model (known: ${known})`);
  }
}

/** `memory-service embeddings show`: the workspace default, the allowlist and the project overrides. */
export async function showEmbeddingsCommand(io: CliIo): Promise<number> {
  await withServices(io, async (services) => {
    const config = await services.control.embeddingConfig.read(DEFAULT_OWNER_ID);
    const lines = [
      `default:    ${services.config.embeddingModel} (MEMORY_EMBEDDING_MODEL)`,
      `allowlist:  ${config.allowlist.length === 0 ? '(only the default and project overrides)' : config.allowlist.join(', ')}`,
      'projects:',
      ...(config.projectOverrides.length === 0
        ? ['  (none)']
        : config.projectOverrides.map((override) => `  ${override.projectId}  ${override.modelId}`)),
    ];
    io.stdout.write(`${lines.join('\n')}\n`);
  });
  return EXIT_CODES.ok;
}

/** `memory-service embeddings allow|disallow <model>`: edits the allowlist requests may pick models from. */
export async function allowlistCommand(io: CliIo, modelId: string, allowed: boolean): Promise<number> {
  await withServices(io, async (services) => {
    if (allowed) requireKnownModel(services, modelId);
    if (allowed) {
      await services.control.embeddingConfig.allow(DEFAULT_OWNER_ID, modelId);
      io.stdout.write(`Allowed ${modelId}: requests may now name it as embeddingModel.\n`);
    } else if (await services.control.embeddingConfig.disallow(DEFAULT_OWNER_ID, modelId)) {
      io.stdout.write(`Removed ${modelId} from the allowlist.\n`);
    } else {
      throw new CliFailure(`${modelId} is not in the allowlist`);
    }
  });
  return EXIT_CODES.ok;
}

/** `memory-service embeddings project <projectId> <model> | --clear`: a project's own embedding model. */
export async function projectModelCommand(io: CliIo, projectId: string, modelId: string | null): Promise<number> {
  await withServices(io, async (services) => {
    if (modelId !== null) requireKnownModel(services, modelId);
    await services.control.embeddingConfig.setProjectModel(DEFAULT_OWNER_ID, projectId, modelId, io.now());
  });
  io.stdout.write(
    modelId === null
      ? `Project ${projectId} uses the workspace default again.\n`
      : `Project ${projectId} now embeds with ${modelId} (new writes; run a backfill for existing memories).\n`,
  );
  return EXIT_CODES.ok;
}
