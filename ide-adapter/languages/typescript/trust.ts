/**
 * What tsgo may do in an UNTRUSTED workspace (its definition's `untrusted` hook; `lsp/untrusted.ts`
 * applies it). Dialect gives tsgo no plugins, so it runs no program the workspace names; the one
 * restriction is on what it reads: its project files (`tsconfig.json`, `jsconfig.json`,
 * `package.json`) may not lead out of the workspace, not even through `extends`.
 */
import { confineProjectFiles } from '../../lsp/project-files.js';
import type { ServerDefinition } from '../../lsp/servers.js';

/** tsgo's definition for an untrusted workspace: project files confined to it. */
export function untrustedTypeScript(definition: ServerDefinition): ServerDefinition {
  return confineProjectFiles(definition);
}
