/**
 * Walkthrough rendering: a 50-comment walkthrough on the Rust fixture against the sum and the
 * maximum of its individual location queries on the same warm server. Comments resolve
 * concurrently, so the render should cost near the slowest query, not the sum.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { rustOfflineEnv } from '../ide-adapter/test/support/rust-offline.js';
import { IdeSession } from '../ide-adapter/index.js';
import { environmentFor, parseWalkthrough, renderWalkthroughHtml, resolveWalkthrough } from '../walkthrough/index.js';
import { fmt, sample, table } from './measure.js';
import { copyWorkspace } from './workspace-copy.js';

/** 50 distinct location expressions over fixtures/rust-app, built from its own text. */
async function expressions(root: string): Promise<string[]> {
  const names = new Set<string>();
  for (const file of ['model.rs', 'service.rs', 'auth.rs', 'util.rs', 'storage/mod.rs', 'storage/memory.rs', 'storage/journal.rs', 'config.rs', 'lib.rs']) {
    const text = await readFile(join(root, 'src', file), 'utf8');
    for (const m of text.matchAll(/\b(?:fn|struct|enum|trait|const)\s+([A-Za-z_][A-Za-z0-9_]*)/g)) names.add(m[1] as string);
  }
  const out: string[] = [];
  for (const name of names) {
    out.push(`findDefinitions("${name}")`, `findReferences(findDefinitions("${name}"))`, `search("src", "\\\\b${name}\\\\b")`);
    if (out.length >= 50) break;
  }
  return out.slice(0, 50);
}

export async function benchWalkthrough(): Promise<string> {
  const copy = await copyWorkspace('rust-app');
  const session = await IdeSession.open({ workspaceRoot: copy.root, env: await rustOfflineEnv() });
  try {
    await session.waitUntilReady({ timeoutMs: 300_000 });
    const exprs = await expressions(copy.root);
    const markdown = ['# Tour', '', ...exprs.map((e, i) => `<comment location='${e}'>Comment ${i + 1}.</comment>\n`)].join('\n');
    const env = environmentFor(session);
    // Warm every query once (the first query in a file is slow in rust-analyzer).
    for (const e of exprs) await session.evaluate(e);

    const singles: number[] = [];
    for (let round = 0; round < 5; round++) {
      for (const [i, e] of exprs.entries()) {
        const t = performance.now();
        await session.evaluate(e);
        const d = performance.now() - t;
        singles[i] = round === 0 ? d : Math.min(singles[i] as number, d);
      }
    }
    const sum = singles.reduce((a, b) => a + b, 0);
    const max = Math.max(...singles);
    const render = await sample(async () => {
      const resolved = await resolveWalkthrough(parseWalkthrough(markdown), env);
      if (resolved.comments.length !== 50) throw new Error('expected 50 comments');
      renderWalkthroughHtml(resolved);
    }, 10);
    const parseOnly = await sample(() => parseWalkthrough(markdown), 20);
    return [
      '### Walkthrough rendering',
      '',
      'A walkthrough with 50 comments on fixtures/rust-app (definitions, references and searches), parsed, resolved and rendered to HTML, against its 50 location queries run one by one on the same warm server (each query: best of 5).',
      '',
      table(
        ['what', 'time'],
        [
          ['sum of the 50 queries, one by one', `${fmt.ms(sum)} ms`],
          ['slowest single query', `${fmt.ms(max)} ms`],
          ['whole walkthrough: parse + resolve (concurrently) + render HTML', `${fmt.ms(render.median)} ms`],
          ['of which markdown parsing', `${fmt.ms(parseOnly.median)} ms`],
          ['render / sum', fmt.ratio(render.median / sum)],
          ['render / slowest query', fmt.ratio(render.median / max)],
        ],
      ),
    ].join('\n');
  } finally {
    await session.shutdown();
    await copy.dispose();
  }
}
