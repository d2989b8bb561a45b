import { allowModel, disallowModel, readEmbeddingConfig, setProjectModel } from '../embeddings/config-store.js';
import { embeddingRegistryReady } from '../embeddings/default-registry.js';
import { DEFAULT_OWNER_ID } from '../store/control-store.js';
import { CliFailure, type CliIo, EXIT_CODES } from './cli-io.js';
import { withServices } from './keys-commands.js';

async function requireKnownModel(modelId: string): Promise<void> {
  const registry = await embeddingRegistryReady();
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
    const config = await readEmbeddingConfig(services.control.database, DEFAULT_OWNER_ID);
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
  if (allowed) await requireKnownModel(modelId);
  await withServices(io, async (services) => {
    if (allowed) {
      await allowModel(services.control.database, DEFAULT_OWNER_ID, modelId);
      io.stdout.write(`Allowed ${modelId}: requests may now name it as embeddingModel.\n`);
    } else if (await disallowModel(services.control.database, DEFAULT_OWNER_ID, modelId)) {
      io.stdout.write(`Removed ${modelId} from the allowlist.\n`);
    } else {
      throw new CliFailure(`${modelId} is not in the allowlist`);
    }
  });
  return EXIT_CODES.ok;
}

/** `memory-service embeddings project <projectId> <model> | --clear`: a project's own embedding model. */
export async function projectModelCommand(io: CliIo, projectId: string, modelId: string | null): Promise<number> {
  if (modelId !== null) await requireKnownModel(modelId);
  await withServices(io, async (services) => {
    await setProjectModel(services.control.database, DEFAULT_OWNER_ID, projectId, modelId, io.now());
  });
  io.stdout.write(
    modelId === null
      ? `Project ${projectId} uses the workspace default again.\n`
      : `Project ${projectId} now embeds with ${modelId} (new writes; run a backfill for existing memories).\n`,
  );
  return EXIT_CODES.ok;
}
