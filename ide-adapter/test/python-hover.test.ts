/**
 * pyright writes a docstring as Markdown for an editor: indentation as `&nbsp;`, `<` as `&lt;`, a
 * kept line break as two trailing spaces (seen on pallets/click: `Context.invoke`'s numbered
 * list). An agent reads text: the documentation says it plainly. Real pyright on fixtures/py-app
 * (`unit_circle`'s docstring).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pythonServer } from '../languages/python/index.js';
import { requireServer } from './support/servers.js';
import { openFixtureSession, type FixtureSession } from './support/session.js';

const available = (await requireServer(pythonServer)) !== undefined;

describe.runIf(available)('Python hover documentation as text (real pyright, fixtures/py-app)', () => {
  let f: FixtureSession;
  beforeAll(async () => {
    f = await openFixtureSession('py-app');
  });
  afterAll(async () => {
    await f?.dispose();
  });

  it('has no HTML entities and no trailing line-break spaces, outside code', async () => {
    const info = (await f.value('getSymbolInfo("unit_circle")')) as { documentation?: string };
    const doc = info.documentation ?? '';
    expect(doc).toContain('radius < 1 is smaller');
    expect(doc).toMatch(/for callers that\n +render something anyway;/);
    expect(doc).not.toMatch(/&(nbsp|lt|gt|amp);/);
    expect(doc).not.toMatch(/ +\n/);
  });

  // Seen on encode/httpx: `Client.request`'s docstring shows its equivalent in a fenced block;
  // the signature was that block, and the documentation lost it.
  it('keeps a docstring\'s code block in the documentation, in place, and the signature is the declaration', async () => {
    const info = (await f.value('getSymbolInfo("total_area")')) as { signature?: string; documentation?: string };
    expect(info.signature).toMatch(/def total_area\(/);
    expect(info.documentation).toMatch(/Equivalent to:\s*```python\s*sum\(shape\.area\(\) for shape in shapes\)\s*```\s*See `render`/);
  });
});

describe('tidying pyright hover text', () => {
  it('leaves code blocks as written, and is linear on a long line of spaces', async () => {
    const { tidyPyrightHover } = await import('../languages/python/hover.js');
    expect(tidyPyrightHover('a &lt;b&gt;  \n```python\nx = a &lt; b  \n```\n&amp;')).toBe('a <b>\n```python\nx = a &lt; b  \n```\n&');
    const long = `${' '.repeat(90_000)}x${' '.repeat(2)}`;
    const started = performance.now();
    expect(tidyPyrightHover(long).endsWith('x')).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
