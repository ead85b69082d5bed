/**
 * The remote protocol: `IdeBackend` itself over JSON-RPC (vscode-jsonrpc), so a client process can
 * use language servers another process keeps warm (the background server, or the VS Code
 * extension). Every request is one port method with its arguments as named params; values are
 * already in Dialect's coordinates (workspace-relative paths, 1-based lines and code-point
 * columns) and cross as they are. Hierarchy handles are opaque JSON and pass through.
 *
 * The zod schemas here are the source of the wire types; each is checked against the port's own
 * type (`satisfies`), so the two cannot drift. The serving side parses every request's params
 * with them (any process of the user may connect). The client imports only their types: it loads
 * no zod (see `remote-backend.ts` for why it trusts results), and the method names and versions it
 * needs live in `methods.ts`, which loads nothing.
 */
import { z } from 'zod';
import type { BackendSymbol, CallEdge, CallItem, Completeness, DiagnosticReport, HoverInfo, OutlineSymbol, ReferenceList, ServerStatus, TypeItem } from '../backend.js';
import type { UnlistedMentions } from '../unlisted-mentions.js';
import type { Diagnostic, Location, Position } from '../model.js';
import { RemoteMethod, type RemoteMethodName } from './methods.js';

export { DIALECT_ERROR_CODE, PROTOCOL_VERSION, RemoteMethod, RemoteNotification, type RemoteMethodName } from './methods.js';

// Values of the port (model.ts, backend.ts, status.ts).

const PositionSchema = z.object({ line: z.number().int(), column: z.number().int() }) satisfies z.ZodType<Position>;

const LocationSchema = z.object({ path: z.string(), start: PositionSchema, end: PositionSchema, content: z.string() }) satisfies z.ZodType<Location>;

const DiagnosticSchema = LocationSchema.extend({
  severity: z.enum(['error', 'warning', 'info', 'hint']),
  message: z.string(),
  code: z.string().optional(),
  source: z.string().optional(),
}) satisfies z.ZodType<Diagnostic>;

const BackendSymbolSchema = z.object({
  name: z.string(),
  kind: z.string(),
  container: z.string().optional(),
  language: z.string(),
  location: LocationSchema,
  range: z.object({ start: PositionSchema, end: PositionSchema }).optional(),
  precise: z.boolean(),
  binding: z.enum(['import', 'reexport']).optional(),
  boundPath: z.string().optional(),
}) satisfies z.ZodType<BackendSymbol>;

// Recursive: the annotation breaks the cycle in inference (the port's type is checked against it).
const OutlineSymbolSchema: z.ZodType<OutlineSymbol> = BackendSymbolSchema.extend({
  embedded: z.boolean().optional(),
  get children(): z.ZodArray<z.ZodType<OutlineSymbol>> {
    return z.array(OutlineSymbolSchema);
  },
});

/** A hierarchy handle: opaque to everyone but the backend that made it, and JSON. */
const HandleSchema = z.json();

const CallItemSchema = z.object({ symbol: BackendSymbolSchema, handle: HandleSchema }) satisfies z.ZodType<CallItem>;

const CallEdgeSchema = z.object({ item: CallItemSchema, callSites: z.array(LocationSchema) }) satisfies z.ZodType<CallEdge>;

const TypeItemSchema = z.object({ symbol: BackendSymbolSchema, handle: HandleSchema }) satisfies z.ZodType<TypeItem>;

const HoverInfoSchema = z.object({ signature: z.string().optional(), documentation: z.string().optional(), withheld: z.string().optional() }) satisfies z.ZodType<HoverInfo>;

const UnlistedMentionsSchema = z.object({
  why: z.enum(['untyped-member', 'skipped-branch', 'ignored-folder', 'inactive-code']),
  where: z.string().optional(),
  server: z.string(),
  name: z.string(),
  mentions: z.array(z.object({ path: z.string(), line: z.number().int() })),
  more: z.boolean(),
}) satisfies z.ZodType<UnlistedMentions>;

const ReferenceListSchema = z.object({ locations: z.array(LocationSchema), total: z.number().int(), gap: z.string().optional(), unlisted: z.array(UnlistedMentionsSchema).optional() }) satisfies z.ZodType<ReferenceList>;

const DiagnosticReportSchema = z.object({ diagnostics: z.array(DiagnosticSchema), complete: z.boolean(), waitedMs: z.number().optional(), files: z.number().int(), gap: z.string().optional() }) satisfies z.ZodType<DiagnosticReport>;

/** One server's status (the `ide/status` notification's params). */
export const ServerStatusSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  languages: z.array(z.string()).readonly(),
  state: z.enum(['idle', 'starting', 'indexing', 'ready', 'crashed', 'stopped', 'unavailable']),
  progress: z.object({ title: z.string(), message: z.string().optional(), percentage: z.number().optional() }).optional(),
  health: z.object({ level: z.enum(['warning', 'error']), message: z.string() }).optional(),
  detail: z.string().optional(),
  memoryBytes: z.number().optional(),
  pid: z.number().int().optional(),
}) satisfies z.ZodType<ServerStatus>;

const CompletenessSchema = z.object({
  complete: z.boolean(),
  servers: z.array(ServerStatusSchema),
  waitedMs: z.number(),
  warnings: z.array(z.string()),
  notes: z.array(z.string()),
  trusted: z.boolean().optional(),
}) satisfies z.ZodType<Completeness>;

// The handshake and the server's own requests.

/** A language the server handles: what a client needs to answer `handles`, `relativeQualifiers`, `mergesOverloads` and `isStub` itself. */
export const LanguageInfoSchema = z.object({
  languageId: z.string(),
  /** Lower-case extensions with the dot (`.rs`). */
  extensions: z.array(z.string()),
  /** Qualifiers that name no module of their own (Rust's `self`, `super`). */
  relativeQualifiers: z.array(z.string()),
  /** Whether the overloads of one name in one scope are one definition (C++: `IdeBackend.mergesOverloads`). */
  mergesOverloads: z.boolean().optional(),
  /** Extensions of files that only declare what a source defines (Python's `.pyi`: `IdeBackend.isStub`). */
  stubExtensions: z.array(z.string()).optional(),
});

/** A language the server handles, in match order (the first whose extensions include a file's wins). */
export type LanguageInfo = z.infer<typeof LanguageInfoSchema>;

/** The answer to `dialect/hello`. */
export const HelloInfoSchema = z.object({
  protocolVersion: z.number().int(),
  /** The build serving: a client of another build (version or install path) must not use it. */
  product: z.object({ version: z.string(), installPath: z.string() }),
  /** The workspace root the server serves (absolute). */
  workspaceRoot: z.string(),
  /** Whether the server runs the workspace as trusted (part of its identity). */
  trusted: z.boolean(),
  /** The server process. */
  pid: z.number().int(),
  /** When the server process started (epoch ms). */
  startedAt: z.number(),
  languages: z.array(LanguageInfoSchema),
  /** The servers' status when the hello was answered; `ide/status` notifications follow. */
  servers: z.array(ServerStatusSchema).readonly(),
});

/** What a background server serves, as its handshake tells a client. */
export type HelloInfo = z.infer<typeof HelloInfoSchema>;

/** The answer to `dialect/info`: the hello plus the process's own state. */
export const ServerInfoSchema = HelloInfoSchema.extend({
  /** Resident memory of the server process (not counting its language servers: see `servers`). */
  memoryBytes: z.number(),
  /** Clients connected right now. */
  connections: z.number().int(),
  /** When the server last answered or received a request (epoch ms). */
  lastActivityAt: z.number(),
});

/** A background server's state for `dialect server status`. */
export type ServerInfo = z.infer<typeof ServerInfoSchema>;

/** What an error response's `data` carries: the `DialectError`'s fields, so the client rethrows the same error. */
export const ErrorDataSchema = z.object({
  code: z.string(),
  hint: z.string().optional(),
  notes: z.array(z.string()).optional(),
  signature: z.string().optional(),
  example: z.string().optional(),
});

/** The `data` of an error response carrying a `DialectError`. */
export type ErrorData = z.infer<typeof ErrorDataSchema>;

// Every request: its params and its result.

const Empty = z.object({});
const Positional = z.object({ path: z.string(), position: PositionSchema });
const Path = z.object({ path: z.string() });
const CallItemParams = z.object({ item: CallItemSchema });

/** Params and result schema of every request, by method. */
export const REQUESTS = {
  [RemoteMethod.Hello]: { params: z.object({ protocolVersion: z.number().int() }), result: HelloInfoSchema },
  [RemoteMethod.Info]: { params: Empty, result: ServerInfoSchema },
  [RemoteMethod.Stop]: { params: Empty, result: z.null() },
  [RemoteMethod.Selection]: { params: Empty, result: LocationSchema.nullable() },
  [RemoteMethod.WorkspaceSymbols]: { params: z.object({ query: z.string(), exact: z.boolean().optional() }), result: z.array(BackendSymbolSchema) },
  [RemoteMethod.DocumentSymbols]: { params: Path, result: z.array(OutlineSymbolSchema) },
  [RemoteMethod.Definition]: { params: Positional, result: z.array(LocationSchema) },
  [RemoteMethod.References]: {
    params: Positional.extend({ includeDeclaration: z.boolean().optional(), limit: z.number().int().nonnegative().optional(), name: z.string().optional() }),
    result: ReferenceListSchema,
  },
  // JSON has no undefined: "no hover" is null.
  [RemoteMethod.Hover]: { params: Positional, result: HoverInfoSchema.nullable() },
  [RemoteMethod.Implementation]: { params: Positional, result: z.array(LocationSchema) },
  [RemoteMethod.PrepareCallHierarchy]: { params: Positional, result: z.array(CallItemSchema) },
  [RemoteMethod.IncomingCalls]: { params: CallItemParams, result: z.array(CallEdgeSchema) },
  [RemoteMethod.OutgoingCalls]: { params: CallItemParams, result: z.array(CallEdgeSchema) },
  [RemoteMethod.TypeDefinition]: { params: Positional, result: z.array(LocationSchema) },
  [RemoteMethod.PrepareTypeHierarchy]: { params: Positional, result: z.array(TypeItemSchema) },
  [RemoteMethod.TypeHierarchy]: { params: z.object({ item: TypeItemSchema, direction: z.enum(['super', 'sub']) }), result: z.array(TypeItemSchema) },
  [RemoteMethod.Diagnostics]: { params: z.object({ path: z.string().optional(), waitMs: z.number().nonnegative().optional() }), result: DiagnosticReportSchema },
  [RemoteMethod.ModulePath]: { params: Path, result: z.array(z.array(z.string())) },
  [RemoteMethod.UnbuiltDeclarations]: { params: z.object({ name: z.string(), qualifiers: z.array(z.string()) }), result: z.array(z.object({ at: LocationSchema, why: z.string() })) },
  [RemoteMethod.ImportOf]: {
    params: z.object({ name: z.string() }),
    result: z.object({ module: z.string(), at: LocationSchema, problem: z.string().optional(), fix: z.string().optional() }).nullable(),
  },
  [RemoteMethod.Start]: { params: Empty, result: z.null() },
  [RemoteMethod.WaitUntilReady]: {
    params: z.object({ timeoutMs: z.number().nonnegative().optional(), paths: z.array(z.string()).optional(), onlyPaths: z.boolean().optional() }),
    result: CompletenessSchema,
  },
  [RemoteMethod.Servers]: { params: Empty, result: z.array(ServerStatusSchema) },
} as const satisfies Record<RemoteMethodName, { params: z.ZodType; result: z.ZodType }>;

/** The params of a request. */
export type ParamsOf<M extends RemoteMethodName> = z.infer<(typeof REQUESTS)[M]['params']>;

/** The result of a request. */
export type ResultOf<M extends RemoteMethodName> = z.infer<(typeof REQUESTS)[M]['result']>;
