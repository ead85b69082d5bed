/**
 * `requires` on a function definition: the registry's one handler prepares what a function needs
 * (an IDE host waits for the index there), after the arguments are validated and before the
 * implementation runs; functions that need nothing never reach it.
 */
import { describe, expect, it } from 'vitest';
import { createRegistry, DialectError, Interpreter, type Requirement } from '../index.js';

describe('requires', () => {
  const events: string[] = [];
  const registry = createRegistry()
    .onRequires(async (requires: Requirement, args) => {
      await Promise.resolve();
      events.push(`prepare ${requires} ${JSON.stringify(args)}`);
      if (args['name'] === 'unready') throw new DialectError({ code: 'invalid-argument', message: 'the index is not there', hint: 'wait' });
    })
    .registerFunction({
      name: 'lookup',
      description: 'needs the index',
      requires: 'index',
      parameters: [{ name: 'name', type: 'string', description: 'a name' }],
      returns: 'string',
      examples: [{ program: 'lookup("x")' }],
      implementation: (args) => {
        events.push(`run lookup ${String(args['name'])}`);
        return args['name'];
      },
    })
    .registerFunction({
      name: 'pure',
      description: 'needs nothing',
      parameters: [],
      returns: 'number',
      examples: [{ program: 'pure()' }],
      implementation: () => {
        events.push('run pure');
        return 1;
      },
    });
  const interpreter = new Interpreter(registry);

  it('prepares a function that requires the index before it runs, with its validated arguments', async () => {
    events.length = 0;
    const outcome = await interpreter.evaluate('[lookup(name: "a"), pure()]');
    expect(outcome.kind).toBe('value');
    expect(events).toContain('run pure');
    expect(events.indexOf('prepare index {"name":"a"}')).toBe(events.indexOf('run lookup a') - 1);
    expect(events.filter((e) => e.startsWith('prepare'))).toHaveLength(1);
  });

  it('a failure while preparing is the outcome, located at the call, and the function does not run', async () => {
    events.length = 0;
    const outcome = await interpreter.evaluate('lookup("unready")');
    if (outcome.kind !== 'error') throw new Error(`expected an error, got ${outcome.kind}`);
    expect(outcome.error.code).toBe('invalid-argument');
    expect(outcome.error.span).toEqual({ start: 0, end: 'lookup("unready")'.length });
    expect(events).not.toContain('run lookup unready');
  });
});
