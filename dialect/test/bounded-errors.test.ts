/**
 * An error's rendering and its JSON are bounded whatever the program: a snippet shows a window of
 * the offending line however long the span under the caret, and text the program controls (a
 * name, a literal) echoed in a message is cut (a 4 MB program printed 8–12 MB of error).
 */
import { describe, expect, it } from 'vitest';
import { Interpreter, MAX_DIAGNOSTIC_TEXT, outcomeToJson, parse, renderDiagnostic, renderOutcome } from '../index.js';
import { demoHost, demoRegistry } from './support/demo-registry.js';

const BIG = 4_000_000;
/** Generous: a window of the line, the message, hint and notes; far below the megabytes of the input. */
const RENDER_LIMIT = 20_000;

const interpreter = new Interpreter(demoRegistry());
const evaluate = (program: string) => interpreter.evaluate(program, { host: demoHost() });

describe('an error shows a bounded window of a long span', () => {
  it('a syntax error whose span is the whole 4 MB line', () => {
    const result = parse('-'.repeat(BIG) + '1');
    expect(result.ok).toBe(false);
    const rendered = renderDiagnostic(result.diagnostics[0]!, result.source);
    expect(rendered.length).toBeLessThan(RENDER_LIMIT);
    expect(rendered).toContain('^');
    expect(rendered).toContain('…');
  });

  it('an error on a 4 MB number literal', async () => {
    const outcome = await evaluate(`findThings(${'1'.repeat(BIG)})`);
    expect(outcome.kind).toBe('error');
    expect(renderOutcome(outcome).length).toBeLessThan(RENDER_LIMIT);
    expect(JSON.stringify(outcomeToJson(outcome)).length).toBeLessThan(2 * RENDER_LIMIT);
  });

  it('a span spread over several lines is cut at its first line', () => {
    const result = parse(`-${'-'.repeat(1000)}\n${'-'.repeat(BIG)}1`);
    expect(renderDiagnostic(result.diagnostics[0]!, result.source).length).toBeLessThan(RENDER_LIMIT);
  });
});

describe('text the program controls is cut where an error echoes it', () => {
  it('an unknown function named with 4 MB', async () => {
    const outcome = await evaluate(`f${'a'.repeat(BIG)}()`);
    expect(outcome.kind === 'error' && outcome.error.code).toBe('unknown-function');
    const rendered = renderOutcome(outcome);
    expect(rendered.length).toBeLessThan(RENDER_LIMIT);
    expect(rendered).toContain('unknown function `faaa');
    const json = outcomeToJson(outcome);
    expect(JSON.stringify(json).length).toBeLessThan(2 * RENDER_LIMIT);
  });

  it('an unbound 4 MB name', async () => {
    const outcome = await evaluate(`findThings(${'x'.repeat(BIG)})`);
    expect(outcome.kind).toBe('error');
    expect(renderOutcome(outcome).length).toBeLessThan(RENDER_LIMIT);
    expect(JSON.stringify(outcomeToJson(outcome)).length).toBeLessThan(2 * RENDER_LIMIT);
  });

  it('every message, hint and note of an error is at most MAX_DIAGNOSTIC_TEXT code points', async () => {
    for (const program of [`f${'a'.repeat(BIG)}()`, `findThings(${'x'.repeat(BIG)})`, `findThings(x${'-'.repeat(BIG)})`, `findThings(${'x'.repeat(BIG)}: 1)`]) {
      const outcome = await evaluate(program);
      expect(outcome.kind).toBe('error');
      const json = outcomeToJson(outcome);
      if (json.kind !== 'error') continue;
      const texts = [json.error.message, json.error.hint ?? '', ...json.error.notes, ...json.error.chain, ...(json.error.diagnostics ?? []).flatMap((d) => [d.message, d.hint ?? '', d.label ?? '', ...(d.labels ?? []).map((l) => l.message)])];
      for (const text of texts) expect([...text].length, program.slice(0, 40)).toBeLessThanOrEqual(MAX_DIAGNOSTIC_TEXT);
    }
  });
});
