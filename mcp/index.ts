/**
 * The MCP server: Dialect for AI agents. `createMcpServer` builds the server over an IDE session
 * (connect it to any transport); `runMcpServer` serves a workspace on stdio (`dialect mcp`).
 */
export { createMcpServer, createRootsMcpServer, DialectMcpServer, SERVER_NAME, SERVER_VERSION, type ClientRootsOptions, type DialectMcpOptions, type ServerStats } from './server.js';
export { runMcpServer, type McpBackendFactory, type RunMcpServerOptions, type StopReason } from './stdio.js';
export { functionCatalog, ideOperationDescription, dialectReference } from './describe.js';
export { ideOperationOutputSchema, type IdeOperationResult, type IndexingState } from './ide-operation.js';
export { presentWalkthroughOutputSchema, type PresentWalkthroughResult } from './walkthrough-tool.js';
export { expandReferenceOutputSchema, ReferenceStore } from './references.js';
