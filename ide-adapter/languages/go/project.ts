/** The files the go command reads whole for gopls before it answers (checked by `project-files.ts`). */
import type { ProjectFileRule } from '../../lsp/project-files.js';

/** Go's project files: modules and workspaces. */
export const PROJECT_FILES_GO: ProjectFileRule = { names: ['go.mod', 'go.work', 'go.sum'], projectMarkers: ['go.mod', 'go.work'] };
