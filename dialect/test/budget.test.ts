/**
 * The evaluation budget (`budget.ts`): every function's result is counted, concurrent calls that
 * reserve fail before building, the error names the budget, and values passed on are counted once.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_EVALUATION_BUDGET, Interpreter, createRegistry, type Outcome } from '../index.js';

function registry(built: { count: number }) {
  const r = createRegistry();
  r.registerFunction({
    name: 'text',
    description: 'a text of n characters, reserved before it is built',
    parameters: [{ name: 'n', type: 'number', description: 'length' }],
    returns: 'string',
    examples: [{ program: 'text(3)' }],
    implementation: async (args, ctx) => {
      await Promise.resolve(); // every call starts before any finishes, as file reads do
      ctx.reserve(2 * (args['n'] as number));
      built.count++;
      return 'y'.repeat(args['n'] as number);
    },
  });
  r.registerFunction({
    name: 'numbers',
    description: 'a list of n numbers, not reserved: counted when returned',
    parameters: [{ name: 'n', type: 'number', description: 'length' }],
    returns: 'number[]',
    examples: [{ program: 'numbers(3)' }],
    implementation: (args) => Array.from({ length: args['n'] as number }, (_, i) => i),
  });
  r.registerFunction({
    name: 'same',
    description: 'its argument',
    parameters: [{ name: 'v', type: 'any', description: 'anything' }],
    returns: 'any',
    examples: [{ program: 'same(1)' }],
    implementation: (args) => args['v'],
  });
  return r;
}

const errorOf = (o: Outcome) => {
  if (o.kind !== 'error') throw new Error(`expected an error, got ${o.kind}`);
  return o.error;
};

describe('the evaluation budget', () => {
  it('stops concurrent calls that reserve before they build their values, naming the budget', async () => {
    const built = { count: 0 };
    const interpreter = new Interpreter(registry(built));
    const o = await interpreter.evaluate(`[${Array.from({ length: 50 }, () => 'text(1000)').join(', ')}]`, { budget: { maxBytes: 10_000, maxItems: 1000 } });
    const error = errorOf(o);
    expect(error.code).toBe('evaluation-budget-exceeded');
    expect(error.message).toContain('10,000 bytes of values (maxBytes)');
    expect(error.message).toContain('text(…)');
    expect(error.span).toBeDefined();
    expect(built.count).toBeLessThanOrEqual(5); // 5 × 2,000 bytes fit; none after
  });

  it('counts items of results it was not told about', async () => {
    const interpreter = new Interpreter(registry({ count: 0 }));
    const o = await interpreter.evaluate('[numbers(600), numbers(600)]', { budget: { maxBytes: 1e9, maxItems: 1000 } });
    expect(errorOf(o).message).toContain('1,000 items (maxItems)');
    const ok = await interpreter.evaluate('[numbers(400), numbers(400)]', { budget: { maxBytes: 1e9, maxItems: 1000 } });
    expect(ok.kind).toBe('value');
  });

  it('counts a value passed on by another function once', async () => {
    const interpreter = new Interpreter(registry({ count: 0 }));
    const o = await interpreter.evaluate('same(same(same(same(numbers(600)))))', { budget: { maxBytes: 1e9, maxItems: 1000 } });
    expect(o.kind).toBe('value');
  });

  it('has named defaults large enough for ordinary programs', async () => {
    expect(DEFAULT_EVALUATION_BUDGET).toEqual({ maxBytes: 64 * 1024 * 1024, maxItems: 1_000_000 });
    const o = await new Interpreter(registry({ count: 0 })).evaluate('[text(100000), numbers(100000)]');
    expect(o.kind).toBe('value');
  });
});
