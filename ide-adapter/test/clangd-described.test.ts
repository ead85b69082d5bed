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

  it("asks about each overload of a merged definition: scale(int, int)'s uses and scale(double, double)'s (cxxopts' add_options)", async () => {
    type Place = { path: string; start: { line: number; column: number } };
    const ints = await shared?.at('src/main.cpp', 'scale(4');
    const doubles = await shared?.at('src/shape.cpp', 'scale(3.14159');
    const refs = (await shared?.value('findReferences("geo::math::scale")')) as { referencedAt: Place }[];
    const used = refs.map((r) => `${r.referencedAt.path}:${r.referencedAt.start.line}:${r.referencedAt.start.column}`);
    expect(used).toEqual(expect.arrayContaining([`src/main.cpp:${ints?.line}:${ints?.column}`, `src/shape.cpp:${doubles?.line}:${doubles?.column}`]));
    expect(new Set(used).size).toBe(used.length);
    // Each caller once, though the header declaration and the source definition are both asked.
    const callers = (await shared?.value('callers("geo::math::scale")')) as { name: string }[];
    expect(callers.map((c) => c.name).sort()).toEqual(['area', 'main']);
  });
});
