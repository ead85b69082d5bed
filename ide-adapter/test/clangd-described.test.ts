/**
 * A C++ project without a compilation database, laid out as most are (`include/<project>/x.h`,
 * included as `"<project>/x.h"`: spdlog, fmt, the cpp-app fixture): the described database must
 * let clangd find those headers, so the sources parse and their uses are indexed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Outcome } from '../../dialect/index.js';
import { clangdAvailable, openClangdSession } from './support/clangd.js';
import type { FixtureSession } from './support/session.js';

const available = await clangdAvailable();

describe.skipIf(!available)('clangd on a C++ project without a compilation database', () => {
  let shared: FixtureSession | undefined;
  beforeAll(async () => {
    shared = await openClangdSession('cpp-app');
  }, 180_000);
  afterAll(async () => {
    await shared?.dispose();
  });

  it('finds headers included by their path below an include folder ("geo/math.h" in include/geo/)', async () => {
    const o = (await shared?.outcome('diagnostics("src/main.cpp", severity: "error")')) as Outcome;
    expect(o.kind).toBe('value');
    expect(JSON.stringify(o.kind === 'value' ? o.value : o)).not.toContain('file not found');
  });

  it("indexes the sources' uses of what the headers declare", async () => {
    const refs = (await shared?.value('findReferences("geo::math::clamp")')) as { referencedAt: { path: string; start: { line: number; column: number } } }[];
    const use = await shared?.at('src/main.cpp', 'clamp(geo');
    expect(refs.filter((r) => r.referencedAt.path === 'src/main.cpp').map((r) => r.referencedAt.start)).toContainEqual(use);
  });
});
