/**
 * The IDE functions as a Dialect registry: the language's built-ins plus navigation, search and
 * git functions over an `IdeBackend`.
 */
import { createRegistry, type Registry } from '../../dialect/index.js';
import { registerFileFunctions } from './files.js';
import { prepareRequirement, type IdeHost } from './host.js';
import { registerNavigation } from './navigation.js';
import { registerPositionFunctions } from './positions.js';
import { registerSelectionFunctions } from './selection.js';
import { registerSessionFunctions } from './session-info.js';
import { registerDiagnostics } from './diagnostics.js';
import { registerTypeFunctions } from './types-hierarchy.js';
import { registerIdeTypes } from './types.js';

/** A registry with every IDE function; evaluate with an `IdeHost` as the host. */
export function createIdeRegistry(): Registry<IdeHost> {
  // Functions declare `requires`; this is the one place their needs are met (the index waited for).
  const registry = createRegistry<IdeHost>().onRequires(prepareRequirement);
  registerIdeTypes(registry);
  registerNavigation(registry);
  registerPositionFunctions(registry);
  registerSelectionFunctions(registry);
  registerTypeFunctions(registry);
  registerDiagnostics(registry);
  registerFileFunctions(registry);
  registerSessionFunctions(registry);
  return registry;
}

export type { IdeHost } from './host.js';

let shared: Registry<IdeHost> | undefined;

/**
 * The process's one IDE registry, built on first use: registering every function is a measurable
 * part of a short command's start-up, and a registry is never added to once built, so the command
 * line's checks and every session share it.
 */
export function sharedIdeRegistry(): Registry<IdeHost> {
  shared ??= createIdeRegistry();
  return shared;
}
