/**
 * The shape of a custom language server in `dialect.json`, as a zod schema: the one source of the
 * {@link CustomServerConfig} type and of the validation of configuration files. Imported only
 * when a configuration file exists (`config.ts`): zod is a large part of a short command's start.
 */
import { z } from 'zod';
import type { Readiness } from './servers.js';

/** The readiness strategies a configuration may name (each one of the {@link Readiness} union). */
const READINESS = ['rust-analyzer-status', 'progress', 'in-order', 'immediate'] as const satisfies readonly Readiness[];

const strings = z.array(z.string()).readonly();

/** One custom server, e.g. pyright, gopls or clangd. */
export const customServerSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'use letters, digits, "-", "_" or "."'),
    displayName: z.string().optional(),
    /** Binary name (looked up on PATH) or path. */
    command: z.string().min(1),
    args: strings.optional(),
    languages: z
      .array(z.object({ languageId: z.string().min(1), extensions: z.array(z.string().min(1)).min(1).readonly() }).readonly())
      .min(1)
      .readonly(),
    /** Detection globs; without them (and without `rootMarkers`) the server is only used on demand. */
    filePatterns: strings.optional(),
    rootMarkers: strings.optional(),
    initializationOptions: z.unknown().optional(),
    settings: z.record(z.string(), z.unknown()).readonly().optional(),
    readiness: z.enum(READINESS).optional(),
    installHint: z.string().optional(),
    /** Override variable for the binary; defaults to `DIALECT_<ID>_SERVER` (id upper-cased, non-alphanumerics as `_`). */
    envVar: z.string().optional(),
    versionArgs: strings.optional(),
    env: z.record(z.string(), z.string()).readonly().optional(),
  })
  .readonly();

/** A custom server from configuration (the type of {@link customServerSchema}). */
export type CustomServerConfig = z.infer<typeof customServerSchema>;

/** The whole `dialect.json`: its custom servers. */
export const workspaceConfigSchema = z.object({ servers: z.array(customServerSchema).default([]) }).strict();
