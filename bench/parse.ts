/**
 * Parse throughput against JSON.parse, in one run: a 1 MB JSON document (shaped like IDE results)
 * and 100,000 small programs (baseline: the same programs written as JSON, in the RFC's
 * `{"fn": {"param": value}}` form, parsed by JSON.parse).
 */
import * as dialect from '../dialect/index.js';
import { fmt, interleaved, table } from './measure.js';

/** A deterministic ~`bytes` JSON document of symbol-like records. */
export function lspLikeDocument(bytes: number): string {
  const items: unknown[] = [];
  let size = 2;
  for (let i = 0; size < bytes; i++) {
    const item = {
      name: `symbol_${i}`,
      kind: i % 3 === 0 ? 'struct' : 'function',
      container: i % 5 === 0 ? null : `impl Type${i % 17}`,
      definedAt: {
        path: `src/module_${i % 50}/file_${i % 7}.rs`,
        start: { line: i * 3 + 1, column: 8 },
        end: { line: i * 3 + 1, column: 20 },
        content: `    pub fn symbol_${i}(&self, value: u64) -> Result<(), Error> { // "quoted" ünïcode`,
      },
      score: i / 7,
      tags: ['pub', i % 2 === 0, null, -1.5e-3],
    };
    size += JSON.stringify(item).length + 1;
    items.push(item);
  }
  return JSON.stringify(items);
}

/** 100,000 realistic small programs and their JSON equivalents. */
export function smallPrograms(count: number): { dialect: string[]; json: string[] } {
  const dialect: string[] = [];
  const json: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = `User${i}`;
    switch (i % 5) {
      case 0:
        dialect.push(`findDefinitions("${name}")`);
        json.push(`{"findDefinitions": {"of": "${name}"}}`);
        break;
      case 1:
        dialect.push(`findReferences(findDefinitions("${name}", file: "src/model.rs"))`);
        json.push(`{"findReferences": {"to": {"findDefinitions": {"of": "${name}", "file": "src/model.rs"}}}}`);
        break;
      case 2:
        dialect.push(`search("src", \`fn\\s+${name}\`, ".rs")`);
        json.push(`{"search": {"path": "src", "regex": "fn\\\\s+${name}", "extension": ".rs"}}`);
        break;
      case 3:
        dialect.push(`pick(findDefinitions("${name}"), kind: "struct", line: ${i % 1000})`);
        json.push(`{"pick": {"from": {"findDefinitions": {"of": "${name}"}}, "kind": "struct", "line": ${i % 1000}}}`);
        break;
      default:
        dialect.push(`lines('src/lib.rs', ${i % 100}, ${(i % 100) + 20})`);
        json.push(`{"lines": {"path": "src/lib.rs", "start": ${i % 100}, "end": ${(i % 100) + 20}}}`);
    }
  }
  return { dialect, json };
}

export async function benchParse(): Promise<{ markdown: string; summary: Record<string, number> }> {
  const doc = lspLikeDocument(1_000_000);
  const check = dialect.parse(doc);
  if (!check.ok || JSON.stringify(dialect.dataValue(check.ast)?.value) !== JSON.stringify(JSON.parse(doc))) throw new Error('the 1 MB document does not parse to JSON.parse\'s value');
  const big = await interleaved({ 'JSON.parse': (): unknown => JSON.parse(doc), 'Dialect parse': () => dialect.parse(doc) }, 25);
  const mb = doc.length / 1_000_000;
  const jp = big['JSON.parse']!;
  const dp = big['Dialect parse']!;

  const { dialect: programs, json } = smallPrograms(100_000);
  for (const p of programs.slice(0, 5)) if (!dialect.parse(p).ok) throw new Error(`bad benchmark program ${p}`);
  const small = await interleaved(
    {
      'JSON.parse': () => {
        for (const s of json) JSON.parse(s);
      },
      'Dialect parse': () => {
        for (const s of programs) dialect.parse(s);
      },
    },
    7,
    1,
  );
  const sj = small['JSON.parse']!;
  const sd = small['Dialect parse']!;
  const opsJ = 100_000 / (sj.median / 1000);
  const opsD = 100_000 / (sd.median / 1000);
  const markdown = [
    '### Parsing',
    '',
    `A ${fmt.ms(mb)} MB JSON document (IDE-result shaped: ${fmt.int(doc.length)} characters) and 100,000 small programs; each pair measured interleaved in the same run, medians.`,
    'The small-program baseline is JSON.parse on the same programs written as JSON (`{"findReferences": {"to": {"findDefinitions": {"of": "User1"}}}}`).',
    'Dialect keeps a span on every AST node and produces full diagnostics on failure.',
    '',
    table(
      ['input', 'JSON.parse', 'Dialect parse', 'Dialect / JSON.parse', 'target'],
      [
        ['1 MB document', `${fmt.ms(jp.median)} ms (${fmt.int(mb / (jp.median / 1000))} MB/s)`, `${fmt.ms(dp.median)} ms (${fmt.ms(mb / (dp.median / 1000))} MB/s)`, `1/${fmt.ratio(dp.median / jp.median)}`, '≥ 1/20'],
        ['100,000 small programs', `${fmt.int(opsJ)} ops/s`, `${fmt.int(opsD)} ops/s`, `1/${fmt.ratio(opsJ / opsD)}`, '≥ 1/6'],
      ],
    ),
  ].join('\n');
  return { markdown, summary: { bigRatio: dp.median / jp.median, smallRatio: opsJ / opsD } };
}
