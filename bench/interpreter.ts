/**
 * Interpreter overhead: a 3-level composition of trivial functions, so later layers can tell
 * interpreter cost from language-server cost.
 */
import * as dialect from '../dialect/index.js';
import { fmt, sample, table } from './measure.js';

export async function benchInterpreter(): Promise<{ markdown: string; summary: Record<string, number> }> {
  const registry = dialect.createRegistry();
  for (const name of ['outer', 'middle', 'inner']) {
    registry.registerFunction({
      name,
      description: 'adds one',
      parameters: [{ name: 'x', type: 'number', description: 'a number' }],
      returns: 'number',
      examples: [{ program: `${name}(1)` }],
      implementation: ({ x }) => (x as number) + 1,
    });
  }
  const interpreter = new dialect.Interpreter(registry);
  const program = 'outer(middle(inner(1)))';
  const parsed = dialect.parse(program);
  if (!parsed.ok) throw new Error('bad program');
  const check = await interpreter.evaluate(program);
  if (check.kind !== 'value' || check.value !== 4) throw new Error('wrong result');

  const batch = 10_000;
  const full = await sample(async () => {
    for (let i = 0; i < batch; i++) await interpreter.evaluate(program);
  }, 15);
  const preParsed = await sample(async () => {
    for (let i = 0; i < batch; i++) await interpreter.evaluateExpr(parsed.ast, parsed.source);
  }, 15);
  const withConversion = await sample(async () => {
    for (let i = 0; i < batch; i++) await interpreter.evaluate('outer(middle(inner("1")))');
  }, 15);
  const perCall = (ms: number): number => (ms * 1000) / batch / 3;
  const markdown = [
    '### Interpreter overhead',
    '',
    `\`${program}\` with three trivial registered functions, ${fmt.int(batch)} evaluations per sample, median of 15 samples.`,
    '',
    table(
      ['what', 'per evaluation', 'per call'],
      [
        ['parse + evaluate', `${fmt.us((full.median * 1000) / batch)} µs`, `${fmt.us(perCall(full.median))} µs`],
        ['evaluate a parsed program', `${fmt.us((preParsed.median * 1000) / batch)} µs`, `${fmt.us(perCall(preParsed.median))} µs`],
        ['parse + evaluate, with a string→number conversion', `${fmt.us((withConversion.median * 1000) / batch)} µs`, `${fmt.us(perCall(withConversion.median))} µs`],
      ],
    ),
  ].join('\n');
  return { markdown, summary: { perCallUs: perCall(full.median) } };
}
