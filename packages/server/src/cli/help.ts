/** Help texts of the `memory-service` command, by command path (`''` is the top level). */
export const HELP_TEXTS: Readonly<Record<string, string>> = {
  '': `memory-service: persistent memory for AI apps (HTTP API, MCP, embedded libSQL databases)

Usage:
  memory-service <command> [options]

Commands:
  start              Start the server; on a first start it creates an API key and prints it once
  workspaces create <name>   Create a workspace and its first API key (printed once)
  workspaces list    List workspaces: id, name, created, active keys, tenants (never the keys)
  keys create        Create an API key (printed once; --workspace <id> for another workspace)
  keys list          List API keys: id, preview, status, created, expires (never the keys)
  keys revoke <id>   Revoke an API key
  embeddings ...     Show or change the embedding allowlist and per-project models
  policy ...         Show or set a tenant's default retrieval strategy (lexical, hybrid, or auto)
  backup <dir>       Copy every file database (and secret.key) into <dir>, usable as a data dir
  restore <dir>      Copy a backup into the data dir (an empty one, or --force)
  export <file>      Write memories, history, graph, sessions and skill files as JSON lines
  import <file>      Read an export (or mem0 memories) into the data dir; the same file twice changes nothing
  erase-user <userId>   Erase every record of a person from one database, for good, and print a receipt

Options:
  -h, --help         Show help; 'memory-service <command> --help' shows a command's help
  -v, --version      Show the version

Configuration comes from MEMORY_* environment variables; 'memory-service start --help' lists the main ones.
`,
  start: `Usage: memory-service start

Starts the server and prints its URL. The HTTP API is under /api/sdk/v1, MCP at /api/mcp, docs at /docs.
On a first start (no API key exists and MEMORY_BOOTSTRAP_API_KEY is unset) it creates an API key and
prints it once. Ctrl-C (SIGINT) or SIGTERM stops it gracefully.

Environment (all optional):
  MEMORY_HOST, MEMORY_PORT         listen address (default 127.0.0.1:8787; port 0 picks a free port)
  MEMORY_DATA_DIR                  folder of the embedded databases (default ./.memory-service)
  MEMORY_BOOTSTRAP_API_KEY         a mem_ key accepted for the default owner
  MEMORY_ADMIN_TOKEN               legacy credential for /management/keys
  MEMORY_CONTROL_DB_URL, MEMORY_DEFAULT_DB_URL (+ _TOKEN)   libSQL databases elsewhere (file:, libsql://, http://)
  MEMORY_TENANT_AUTO_PROVISION     create a tenant's database on its first write (default true)
  MEMORY_TENANT_QUOTA              tenants one workspace may have (default 1000; 0 = no limit)
  MEMORY_RATE_LIMIT_PER_MINUTE     per API key (default 600; 0 disables)
  MEMORY_SESSION_ENABLED, MEMORY_COMPACTION_ENABLED, MEMORY_CONSOLIDATION_ENABLED, MEMORY_PROCEDURAL_ENABLED
  MEMORY_EMBEDDING_MODEL           the embedding model of hybrid retrieval (default local/use-lite-512, offline)
  MEMORY_GRAPH_AUTOPILOT           let the server make hybrid a tenant's default strategy by itself, once its
                                   memories have their vectors (default true; false keeps lexical until an
                                   operator runs 'memory-service policy set hybrid')
  MEMORY_LOG_LEVEL                 debug, info, warn, error or silent (JSON lines on stderr; default info)

Options:
  -h, --help         Show this help
`,
  workspaces: `Usage: memory-service workspaces <command>

A workspace (an owner) has its own API keys, tenants, workspace database, skill-file mirror and tenant quota;
nothing of one workspace is reachable with another's key. Works directly in the control database of
MEMORY_DATA_DIR (or MEMORY_CONTROL_DB_URL), whether or not the server is running.

Commands:
  create <name> [--expires-in <duration>]   Create a workspace and its first API key (printed once)
  list                                      List workspaces (never their keys)

Options:
  -h, --help         Show help; 'memory-service workspaces <command> --help' shows a command's help
`,
  'workspaces create': `Usage: memory-service workspaces create <name> [--expires-in <duration>]

Creates a workspace and prints its id and its first API key once: store the key, it cannot be shown again.
Its own database is <MEMORY_DATA_DIR>/workspaces/<id>.db, created on first use. With the control database on a
libSQL server (MEMORY_CONTROL_DB_URL not a file:) the workspace gets no workspace database: its requests name
a tenantId (provisioned by MEMORY_TENANT_PROVISIONER); without one they answer 400 DATABASE_NOT_CONFIGURED.

Options:
  --expires-in <duration>   Expire the first key after 90m, 12h, 30d... (1 minute to 365 days; default: never)
  -h, --help                Show this help
`,
  'workspaces list': `Usage: memory-service workspaces list

Lists the workspaces: id, name, created, active keys (not revoked, not expired) and tenants.

Options:
  -h, --help         Show this help
`,
  keys: `Usage: memory-service keys <command> [--workspace <id>]

Manages the API keys of a workspace (default: the default workspace), directly in the control database of
MEMORY_DATA_DIR (or MEMORY_CONTROL_DB_URL). Works whether or not the server is running.

Commands:
  create [--expires-in <duration>]   Create an API key (printed once; --allow-rule-writes: see its help)
  list                               List API keys (never the keys themselves)
  revoke <id>                        Revoke an API key by id

Options:
  --workspace <id>   The workspace (see 'memory-service workspaces list'; default: the default workspace)
  -h, --help         Show help; 'memory-service keys <command> --help' shows a command's help
`,
  'keys create': `Usage: memory-service keys create [--expires-in <duration>] [--workspace <id>] [--allow-rule-writes]

Creates an API key of a workspace and prints it once: store it, it cannot be shown again.

Options:
  --expires-in <duration>   Expire the key after 90m, 12h, 30d... (1 minute to 365 days; default: never)
  --workspace <id>          The workspace the key belongs to (default: the default workspace)
  --allow-rule-writes       Let this key's MCP clients add, edit and forget rules (type or layer "rule"), which MCP
                            refuses otherwise: rules reach every later prompt. The HTTP API accepts them from any key
  -h, --help                Show this help
`,
  'keys list': `Usage: memory-service keys list [--workspace <id>]

Lists the API keys of a workspace: id, preview, status (active, expired, revoked), created, expires, and
whether its MCP clients may write rules (MCP RULES: allowed, or -).
The keys themselves are stored only as hashes and are never shown.

Options:
  --workspace <id>   The workspace (default: the default workspace)
  -h, --help         Show this help
`,
  'keys revoke': `Usage: memory-service keys revoke <id> [--workspace <id>]

Revokes the API key with this id (see 'memory-service keys list'). Requests with it fail from then on.

Options:
  --workspace <id>   The workspace the key belongs to (default: the default workspace)
  -h, --help         Show this help
`,
  embeddings: `Usage: memory-service embeddings <command>

Configures which embedding models writes may use, in the control database (works whether or not the server
is running; a running server applies changes from its next write). A write uses its request's embeddingModel, else
its project's model, else MEMORY_EMBEDDING_MODEL; a requested model must be in the allowlist.

Commands:
  show                                  The default model, the allowlist and the project models
  allow <model>                         Let requests name this model (e.g. local/hash-384)
  disallow <model>                      Remove a model from the allowlist
  project <projectId> <model>|--clear   Set (or clear) the model a project's memories are embedded with

Options:
  -h, --help         Show help; 'memory-service embeddings <command> --help' shows a command's help
`,
  backup: `Usage: memory-service backup <dir> [--force]

Writes a consistent copy (SQLite's VACUUM INTO) of the control database, each workspace database and each tenant
database that is a file into <dir> (created 0700, files 0600), in the data dir's layout: control.db, workspace.db,
workspaces/<id>.db, tenants/<owner>/<name>.db. The copied control database names the copies relative to <dir>,
so MEMORY_DATA_DIR=<dir> starts a server on the backup, also after the folder is moved or copied ('memory-service
restore <dir>' copies it into the configured data dir). secret.key is copied too (the
tokens of attached databases are sealed with it). Safe while a server runs on the same data dir: each copy is one
read transaction. Databases on a libSQL server (libsql://, http://) are listed as skipped: back them up there.
Reads MEMORY_DATA_DIR, MEMORY_CONTROL_DB_URL and MEMORY_DEFAULT_DB_URL like the server.

Options:
  --force            Write into a folder that is not empty (files of the same name are replaced, others stay)
  -h, --help         Show this help
`,
  restore: `Usage: memory-service restore <backup-dir> [--force]

Copies a backup made by 'memory-service backup' into MEMORY_DATA_DIR: each database file as it is (folders 0700,
files 0600; the backup is only read) in the same layout, and secret.key. The restored control database names
every database relative to the data dir, so the server reads only the restored files. Stop the server on the data
dir first.

Options:
  --force            Restore into a data dir that is not empty (files the backup has are replaced, others stay)
  -h, --help         Show this help
`,
  export: `Usage: memory-service export <file> [--workspace <id>] [--tenant <id>] [--with-vectors] [--force]

Writes the databases of MEMORY_DATA_DIR (or MEMORY_CONTROL_DB_URL) in the export format of docs/export-format.md:
JSON lines, a header, one record per line (memories with every field, their edit history, graph nodes, links and
edges, sessions with events and snapshots, skill files), a trailer with counts and a checksum. Reads page by page and
writes as it goes, into <file>.partial (0600), renamed to <file> once complete; '-' writes to stdout. Safe while a
server runs. A progress bar goes to stderr (a line every few seconds when stderr is not a terminal).

Options:
  --workspace <id>   Only this workspace (its own database and tenants; default: every workspace)
  --tenant <id>      Only this tenant (of every workspace picked)
  --with-vectors     Add the embedding vectors (large; without them an import queues the memories for indexing)
  --force            Replace <file> when it exists
  -h, --help         Show this help
`,
  import: `Usage: memory-service import <file> [--workspace <id>] [--tenant <id>] [--with-vectors] [--mem0-project <key>]

Reads an export (docs/export-format.md) into MEMORY_DATA_DIR. The whole file is checked first: a line that is not
JSON or fails its schema, an unknown version, a trailer whose counts or checksum do not match (a truncated or edited
file) is refused naming the line, and nothing is written. Then each database of the file is written in one
transaction, as upserts by id: importing the same file twice leaves the same state. Workspaces and tenants the data
dir lacks are created. Memories are queued for indexing: a server derives their vectors and graph edges again.

Also reads mem0 memories: JSON lines of memories, or a getAll answer ([...], {"results": [...]}); they go to the
workspace's own database, or --tenant (see docs/export-format.md for the mapping).

Options:
  --workspace <id>   Only this workspace of the file (mem0: the target workspace; default: the default one)
  --tenant <id>      Only this tenant of the file (mem0: the target tenant)
  --with-vectors     Import the file's vectors too (else they are skipped and derived again)
  --mem0-project <key>   mem0 only: agent_id, app_id or run_id becomes the projectId (default: all in metadata)
  -h, --help         Show this help
`,
  'erase-user': `Usage: memory-service erase-user <userId> [--tenant <id>] [--workspace <id>] [--yes]

Erases every record of <userId> from one database of MEMORY_DATA_DIR (a tenant, or the workspace's own): their
memories (live, forgotten, superseded) with their full-text entries, vectors of every model, edit history, graph
links and edges and the graph nodes only they linked, index and embedding jobs; their sessions with events and
snapshots; their skill files and the files' mirrors on disk; lifecycle events, retrieval events and metrics,
consolidation runs and backfill state that name them; and the idempotency ledger's answers that mention them.
The database is changed in one transaction: a failure erases nothing. Shared records (no userId) and other users'
records stay. Prints a receipt: how many of each kind were erased. It cannot be undone, and backups made before
still hold the person. Asks for the userId to be typed again unless --yes (without a terminal, --yes is required).
The same as POST /management/users/erase; with a server running on the data dir, prefer the route (it also waits
for the server's indexer to finish a batch it may be writing about the person's memories).

Options:
  --tenant <id>      The tenant (default: the workspace's own database)
  --workspace <id>   The workspace (default: the default workspace)
  --yes              Erase without asking
  -h, --help         Show this help
`,
  policy: `Usage: memory-service policy <command> [--tenant <id>] [--workspace <id>]

The retrieval policy decides the strategy of a context/get or memories/search call that names none. It starts
lexical; the server's autopilot (MEMORY_GRAPH_AUTOPILOT, on by default) makes it hybrid by itself once the
tenant is ready: its embedding model is available, at least 95% of its memories have a vector, and hybrid
requests are not failing. A policy set here is the operator's and the autopilot never changes it. Works
directly in the databases of MEMORY_DATA_DIR (or MEMORY_CONTROL_DB_URL), whether or not the server is running;
a running server applies a change from its next call.

Commands:
  show                            The default strategy, who set it, and the tenant's readiness for hybrid
  set <lexical|hybrid|auto>       Fix the default (lexical or hybrid), or hand it back to the autopilot (auto)

Options:
  --tenant <id>      The tenant (default: the workspace's own database, used by requests without a tenantId)
  --workspace <id>   The workspace (default: the default workspace)
  -h, --help         Show help; 'memory-service policy <command> --help' shows a command's help
`,
  'policy show': `Usage: memory-service policy show [--tenant <id>] [--workspace <id>]

Prints the default strategy, who set it (nobody, the autopilot, or an operator) and when, whether the autopilot
may change it, and the readiness for hybrid: the embedding model, how many memories have a vector, and the hybrid
requests the model failed in the last 24 hours.

Options:
  --tenant <id>      The tenant (default: the workspace's own database)
  --workspace <id>   The workspace (default: the default workspace)
  -h, --help         Show this help
`,
  'policy set': `Usage: memory-service policy set <lexical|hybrid|auto> [--tenant <id>] [--workspace <id>]

lexical or hybrid: the default strategy from now on, kept until an operator sets it again (the autopilot
never overrides it). auto: lexical again until the autopilot promotes it (at the next call, if the tenant is
ready). A call that names its strategy always gets it; a hybrid call still answers lexically, and says why in its
trace, when the embedding model fails or a memory has no vector yet.

Options:
  --tenant <id>      The tenant (default: the workspace's own database)
  --workspace <id>   The workspace (default: the default workspace)
  -h, --help         Show this help
`,
  'embeddings show': `Usage: memory-service embeddings show

Prints the workspace default model, the allowlist and the per-project models.

Options:
  -h, --help         Show this help
`,
  'embeddings allow': `Usage: memory-service embeddings allow <model>

Adds a registered embedding model (see GET /api/sdk/v1/embeddings/models) to the allowlist.

Options:
  -h, --help         Show this help
`,
  'embeddings disallow': `Usage: memory-service embeddings disallow <model>

Removes a model from the allowlist. Memories already embedded with it keep their vectors.

Options:
  -h, --help         Show this help
`,
  'embeddings project': `Usage: memory-service embeddings project <projectId> <model>
       memory-service embeddings project <projectId> --clear

Sets the model new memories of a project are embedded with (a registered model), or clears it so the project
uses the workspace default. Run POST /management/embeddings/backfill to embed existing memories with it.

Options:
  --clear            Use the workspace default again
  -h, --help         Show this help
`,
};

/** The help text of a command path; the top level's for an unknown one. */
export function helpText(command: string): string {
  return HELP_TEXTS[command] ?? HELP_TEXTS['']!;
}
