import { describe, expect, it } from 'vitest';
import { DialectError, SourceText, renderOutcome, type Outcome } from '../../dialect/index.js';
import {
  CommentErrorCode, WalkthroughError, WarningCode, parseWalkthrough, resolveWalkthrough, summarizeWalkthrough, walkthroughToJson,
  type CommentResolution, type ResolvedWalkthrough, type WalkthroughEnvironment,
} from '../index.js';
import { RUST_APP, TS_APP, fixtureEnvironment, locate, locateAll } from './support/fixture-env.js';
import { stubEnvironment, valueOutcome } from './support/render.js';

const rust = fixtureEnvironment(RUST_APP);
const resolve = (markdown: string, env: WalkthroughEnvironment = rust): Promise<ResolvedWalkthrough> => resolveWalkthrough(parseWalkthrough(markdown), env);
const comment = (location: string): string => `<comment location='${location}'>\nText.\n</comment>\n`;
const resolutionOf = async (location: string, env: WalkthroughEnvironment = rust): Promise<CommentResolution> => {
  const resolved = await resolve(comment(location), env);
  const first = resolved.comments[0];
  if (first === undefined) throw new Error('no comment');
  return first.resolution;
};

describe('resolved comments', () => {
  it('one location: path, line, the line text and context lines around it', async () => {
    const expected = locate(RUST_APP, 'src/auth.rs', 'authenticate');
    const r = await resolutionOf('findDefinition("authenticate")');
    if (r.status !== 'resolved') throw new Error(`expected resolved, got ${r.status}`);
    expect(r.location).toMatchObject({ path: 'src/auth.rs', line: expected.start.line, column: expected.start.column, text: expected.content });
    expect(r.location.text).toContain('pub fn authenticate');
    expect(r.location.context.startLine).toBe(expected.start.line - 3);
    expect(r.location.context.lines).toHaveLength(7);
    expect(r.location.context.lines[3]).toBe(expected.content);
  });

  it('TypeScript fixture too', async () => {
    const ts = fixtureEnvironment(TS_APP);
    const r = await resolutionOf('findDefinition("Config", file: "src/config.ts")', ts);
    expect(r).toMatchObject({ status: 'resolved', location: { path: 'src/config.ts', line: locate(TS_APP, 'src/config.ts', 'interface Config').start.line } });
  });
});

describe('ambiguous comments', () => {
  it('an ambiguity offers each candidate with the program that selects exactly it', async () => {
    const r = await resolutionOf('findDefinition("validate_token")');
    if (r.status !== 'ambiguous') throw new Error(`expected ambiguous, got ${r.status}`);
    expect(r.message).toBe('2 declarations of "validate_token"');
    expect(r.choices.map((c) => [c.location.path, c.location.line, c.program])).toEqual([
      ['src/auth.rs', locate(RUST_APP, 'src/auth.rs', 'fn validate_token').start.line, 'findDefinition("validate_token", file: "src/auth.rs")'],
      ['src/util.rs', locate(RUST_APP, 'src/util.rs', 'fn validate_token').start.line, 'findDefinition("validate_token", file: "src/util.rs")'],
    ]);
    // Each program, used as the location, places the comment there.
    for (const choice of r.choices) {
      expect(await resolutionOf(choice.program ?? '')).toMatchObject({ status: 'resolved', location: { path: choice.location.path, line: choice.location.line } });
    }
  });

  it('a list of several locations is ambiguous too, with pick(…, n) programs', async () => {
    const all = locateAll(RUST_APP, 'validate_token(');
    expect(all.length).toBeGreaterThan(2);
    const r = await resolutionOf('findAll("validate_token(")');
    if (r.status !== 'ambiguous') throw new Error(`expected ambiguous, got ${r.status}`);
    expect(r.choices.map((c) => `${c.location.path}:${c.location.line}`)).toEqual(all.map((l) => `${l.path}:${l.start.line}`));
    expect(r.choices[1]?.program).toBe('pick(findAll("validate_token("), 2)');
    expect(await resolutionOf(r.choices[1]?.program ?? '')).toMatchObject({ status: 'resolved', location: { path: all[1]?.path, line: all[1]?.start.line } });
  });

  it('TypeScript: validateToken is declared in two modules', async () => {
    const r = await resolutionOf('findDefinition("validateToken")', fixtureEnvironment(TS_APP));
    expect(r.status).toBe('ambiguous');
  });
});

describe('unresolved comments', () => {
  it('an evaluation error shows the interpreter error, caret and hint included', async () => {
    const r = await resolutionOf('findDefinition("no_such_thing")');
    if (r.status !== 'unresolved') throw new Error(`expected unresolved, got ${r.status}`);
    expect(r.error.code).toBe('symbol-not-found');
    expect(r.error.text).toContain('error[symbol-not-found]: no declaration of "no_such_thing"');
    expect(r.error.text).toContain('hint: check the spelling');
  });

  it('syntax errors, unknown functions, values without a location', async () => {
    expect(await resolutionOf('findDefinition("x"')).toMatchObject({ status: 'unresolved', error: { code: 'syntax-error' } });
    expect(await resolutionOf('findDefinitoin("x")')).toMatchObject({ status: 'unresolved', error: { code: 'unknown-function' } });
    const r = await resolutionOf('"just text"');
    expect(r).toMatchObject({ status: 'unresolved', error: { code: CommentErrorCode.NoLocation } });
    if (r.status === 'unresolved') expect(r.error.message).toContain('not a code location');
  });

  it('no location attribute, or an evaluator that throws', async () => {
    const missing = await resolve('<comment>x</comment>');
    expect(missing.comments[0]?.resolution).toMatchObject({ status: 'unresolved', error: { code: CommentErrorCode.MissingLocation } });
    const throwing = stubEnvironment(() => {
      throw new DialectError({ code: 'server-crashed', message: 'rust-analyzer exited' });
    });
    expect(await resolutionOf('x()', throwing)).toMatchObject({ status: 'unresolved', error: { code: 'server-crashed' } });
    const plain = stubEnvironment(() => Promise.reject(new Error('boom')));
    expect(await resolutionOf('x()', plain)).toMatchObject({ status: 'unresolved', error: { code: CommentErrorCode.EvaluationFailed } });
  });

  it('a location in a file that cannot be read is still placed, without context', async () => {
    const env = stubEnvironment(() => valueOutcome({ path: 'gone.rs', start: { line: 4, column: 1 }, end: { line: 4, column: 5 }, content: 'fn x' }));
    expect(await resolutionOf('x()', env)).toMatchObject({ status: 'resolved', location: { path: 'gone.rs', line: 4, text: 'fn x', context: { lines: [] } } });
  });
});

describe('concurrency and cancellation', () => {
  it('evaluates every comment concurrently', async () => {
    const count = 12;
    let inFlight = 0;
    let peak = 0;
    // Every evaluation waits until all of them have started: only concurrent evaluation gets there
    // (sequential evaluation would never finish the first one).
    let allStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (allStarted = resolve));
    const env = stubEnvironment(async (expression) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      if (inFlight === count) allStarted();
      await started;
      inFlight--;
      return valueOutcome({ path: 'a.rs', start: { line: 1, column: 1 }, end: { line: 1, column: 2 }, content: expression });
    }, { 'a.rs': ['fn a() {}'] });
    const markdown = Array.from({ length: count }, (_, i) => comment(`thing(${i})`)).join('\n');
    const resolved = await resolve(markdown, env);
    expect(peak).toBe(count);
    expect(resolved.comments.every((c) => c.resolution.status === 'resolved')).toBe(true);
  });

  it('evaluates a repeated expression once', async () => {
    const seen: string[] = [];
    const env = fixtureEnvironment(RUST_APP, { onEvaluate: (e) => seen.push(e) });
    await resolve(comment('findDefinition("authenticate")') + '\n' + comment('findDefinition("authenticate")'), env);
    expect(seen).toEqual(['findDefinition("authenticate")']);
  });

  it('cancellation reaches the evaluations and rejects with a cancelled error', async () => {
    const signals: AbortSignal[] = [];
    let bothRunning: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (bothRunning = resolve));
    const env: WalkthroughEnvironment = {
      ...stubEnvironment(() => valueOutcome(null)),
      evaluate: (_expression, signal) => {
        if (signal !== undefined) signals.push(signal);
        if (signals.length === 2) bothRunning();
        return new Promise<Outcome>((resolve) => {
          signal?.addEventListener('abort', () => resolve({ kind: 'error', error: new DialectError({ code: 'cancelled', message: 'cancelled' }), source: new SourceText('x'), notes: [] }));
        });
      },
    };
    const controller = new AbortController();
    const pending = resolveWalkthrough(parseWalkthrough(comment('a()') + comment('b()')), env, { signal: controller.signal });
    await running; // abort once both evaluations are under way
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'WalkthroughError', code: 'cancelled' });
    expect(signals).toHaveLength(2);
    expect(signals.every((s) => s.aborted)).toBe(true);
    await expect(resolveWalkthrough(parseWalkthrough('x'), env, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(WalkthroughError);
  });
});

describe('file links', () => {
  it('regex links find their line; line links read theirs; broken ones warn', async () => {
    const resolved = await resolve('[auth](<src/auth.rs?pub fn authenticate>), [lib](src/lib.rs#L1), [gone](src/gone.rs#L3), [far](src/lib.rs#L99999), [bad](<src/lib.rs?(>)');
    const [regex, line, gone, far, bad] = resolved.links;
    expect(regex).toMatchObject({ line: locate(RUST_APP, 'src/auth.rs', 'pub fn authenticate').start.line });
    expect(regex?.text).toContain('pub fn authenticate');
    expect(line).toMatchObject({ line: 1 });
    expect(line?.error).toBeUndefined();
    for (const broken of [gone, far, bad]) expect(broken?.error).toBeDefined();
    expect(resolved.warnings.filter((w) => w.code === WarningCode.BrokenLink).map((w) => w.elementId)).toEqual(['link-3', 'link-4', 'link-5']);
  });
});

describe('JSON and summary', () => {
  const markdown = [
    '# Auth tour',
    comment('findDefinition("authenticate")'),
    comment('findDefinition("validate_token")'),
    comment('findDefinition("nope")'),
    '<action button="Add tests">Add tests for `authenticate`.</action>',
    '',
    '```mermaid\ngraph TD; A-->B\n```',
    '',
    '<gitdiff range="HEAD" />',
    '',
    '<blink>old</blink>',
  ].join('\n');

  it('the JSON model has every comment with id, status, locations, icon, content and expression', async () => {
    const json = walkthroughToJson(await resolve(markdown));
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
    expect(json.title).toBe('Auth tour');
    expect(json.counts).toMatchObject({ comments: 3, resolved: 1, ambiguous: 1, unresolved: 1, actions: 1, diagrams: 1, diffs: 1, warnings: 1 });
    expect(json.comments.map((c) => [c.id, c.status, c.locations.length, c.emoji])).toEqual([
      ['comment-1', 'resolved', 1, '💬'],
      ['comment-2', 'ambiguous', 2, '💬'],
      ['comment-3', 'unresolved', 0, '💬'],
    ]);
    expect(json.comments[0]).toMatchObject({ expression: 'findDefinition("authenticate")', content: 'Text.', contentHtml: '<p>Text.</p>\n' });
    expect(json.comments[1]?.choices?.map((c) => c.program)).toHaveLength(2);
    expect(json.comments[2]?.error?.code).toBe('symbol-not-found');
    expect(json.actions).toMatchObject([{ id: 'action-1', button: 'Add tests', message: 'Add tests for `authenticate`.', messageHtml: '<p>Add tests for <code>authenticate</code>.</p>\n' }]);
    expect(json.diagrams).toMatchObject([{ id: 'mermaid-1', form: 'fenced', source: 'graph TD; A-->B' }]);
    expect(json.diffs[0]).toMatchObject({ id: 'gitdiff-1', range: 'HEAD' });
  });

  it('the summary tells an agent what to fix', async () => {
    const summary = summarizeWalkthrough(await resolve(markdown));
    expect(summary).toContain('Walkthrough "Auth tour": 3 comments (1 resolved, 1 ambiguous, 1 unresolved)');
    expect(summary).toContain('comment-2 (line 6) location="findDefinition(\\"validate_token\\")": 2 declarations of "validate_token"');
    expect(summary).toContain('findDefinition("validate_token", file: "src/util.rs")');
    expect(summary).toContain('comment-3 (line 10) location="findDefinition(\\"nope\\")": [symbol-not-found]');
    expect(summary).toContain(renderOutcome(await rust.evaluate('findDefinition("nope")')).split('\n')[0]);
    expect(summary).toMatch(/line 22: \[unknown-element\] <blink>/);
    expect(summarizeWalkthrough(await resolve(comment('findDefinition("authenticate")')))).toContain('Everything resolved.');
  });
});
