/** The notes ledger's one-line form of a fact: short, the reason kept where it fits, the fix always kept. */
import { describe, expect, it } from 'vitest';
import { CLANGD_UNTRUSTED_LIMITS } from '../languages/cpp/trust.js';
import { GOPLS_UNTRUSTED_LIMITS } from '../languages/go/trust.js';
import { PYRIGHT_UNTRUSTED_LIMITS } from '../languages/python/trust.js';
import { RUST_UNTRUSTED_LIMITS } from '../languages/rust/trust.js';
import { untrustedNote } from '../lsp/untrusted.js';
import { factOf, MAX_NOTE_LINE, NotesLedger, STATUS_POINTER } from '../notes-ledger.js';

describe('factOf', () => {
  it('keeps a short fact as it is', () => {
    expect(factOf('k', 'the workspace is untrusted').line).toBe('the workspace is untrusted');
  });

  it('keeps the leading clauses that fit (what happened, then why) and says where the rest is', () => {
    const text = `rust-analyzer is unavailable, so its files get text search only: rust-analyzer was not found; ${'x '.repeat(100)}`;
    const fact = factOf('k', text);
    expect(fact.line).toBe(`rust-analyzer is unavailable, so its files get text search only: rust-analyzer was not found — ${STATUS_POINTER}`);
    expect(fact.detail).toBe(text.trim());
  });

  it('never cuts a clause inside parentheses (a reason in brackets is kept whole or left out)', () => {
    const text =
      "cargo cannot resolve this workspace's dependencies offline (error: no matching package named `quickcheck` found), so Dialect described its 2 crates to rust-analyzer from their manifests: the crates and the links between them are loaded, but items of quickcheck are unknown. Fix: run `cargo fetch` once with network access, then restart.";
    const fact = factOf('k', text);
    expect(fact.line.split('(').length).toBe(fact.line.split(')').length); // no parenthesis left open
    expect(fact.line).toContain("cargo cannot resolve this workspace's dependencies offline");
    expect(fact.line).toContain('Fix: run `cargo fetch` once with network access, then restart');
  });

  it.each([
    ['To trust it: ', 'To trust it: dialect trust /work/some/folder'],
    ['Trust the workspace to use it: ', 'Trust the workspace to use it: dialect trust /work/some/folder'],
    ['To lift this, ', 'To lift this, trust the folder in VS Code (Manage Workspace Trust) and reload the window'],
  ])('keeps the fix that starts with %j in the line, within the line budget', (_lead, fix) => {
    const fact = factOf('k', `something was held back: ${'a long explanation of what and why '.repeat(6)}. ${fix}.`);
    expect(fact.line).toContain(fix);
    expect(fact.line).toContain(STATUS_POINTER);
    expect(fact.line.length).toBeLessThanOrEqual(MAX_NOTE_LINE + 20);
  });

  it('cuts a clause too long for its line at the end of a word, never inside one', () => {
    // An untrusted workspace whose servers' limits make one long clause (clangd and pyright: cxxopts).
    const fix = 'To trust it: dialect trust /tmp/rc5/cxxopts';
    const text = `untrusted workspace: clangd ignores the project's .clangd and queries no compiler for its include folders, and pyright runs no interpreter of the workspace. ${fix}`;
    const fact = factOf('untrusted', text);
    const head = fact.line.slice(0, fact.line.indexOf(' — '));
    expect(head.endsWith('…')).toBe(true);
    const kept = head.slice(0, -1);
    expect(text.startsWith(kept)).toBe(true);
    expect(text[kept.length]).toMatch(/[\s,;:.]/); // the next character ends a word
    expect(fact.line).toContain(fix);
    expect(fact.line.length).toBeLessThanOrEqual(MAX_NOTE_LINE);
  });
  it('names the servers that run restricted in the untrusted line, whichever two they are', () => {
    const limits = [RUST_UNTRUSTED_LIMITS, CLANGD_UNTRUSTED_LIMITS, PYRIGHT_UNTRUSTED_LIMITS, GOPLS_UNTRUSTED_LIMITS];
    // A checkout a few folders deep: its trust command takes a third of the line.
    const root = '/home/someone/src/organisation/repository';
    const name = (limit: string): string => limit.slice(0, limit.indexOf(' '));
    expect(untrustedNote({ root, limits: [CLANGD_UNTRUSTED_LIMITS], skippedServers: [] })).toBe(`untrusted workspace: ${CLANGD_UNTRUSTED_LIMITS}. To trust it: dialect trust ${root}`);
    for (const first of limits) {
      for (const second of limits.filter((l) => l !== first)) {
        const note = untrustedNote({ root, limits: [first, second], skippedServers: [] }) as string;
        const { line, detail } = factOf('untrusted', note);
        expect(line, note).toContain(`untrusted workspace (${name(first)}, ${name(second)} restricted)`);
        expect(detail).toContain(`${first}; ${second}`);
        expect(line).toContain(`To trust it: dialect trust ${root}`);
        expect(line.length).toBeLessThanOrEqual(MAX_NOTE_LINE);
      }
    }
  });
});

describe('NotesLedger', () => {
  it('does not repeat, as a note, a fact the answer states itself, and counts it as told', () => {
    const ledger = new NotesLedger();
    const why = 'gopls was not started: no go command outside this untrusted workspace is on PATH (gopls runs `go`); install golang-go';
    ledger.observe(factOf('warning:gopls', `gopls is unavailable, so its files get text search only: ${why}`));
    ledger.observe(factOf('untrusted', 'untrusted workspace: gopls runs without cgo'));
    expect(ledger.take(`"Widget" cannot be looked up: ${why}`)).toEqual(['untrusted workspace: gopls runs without cgo']);
    expect(ledger.take()).toEqual([]);
    // An answer that does not state it gets the note.
    const other = new NotesLedger();
    other.observe(factOf('warning:gopls', `gopls is unavailable, so its files get text search only: ${why}`));
    expect(other.take('"Widget" cannot be looked up: something else')).toHaveLength(1);
  });

  it('tells a fact once, and again only when its line changes', () => {
    const ledger = new NotesLedger();
    ledger.observe(factOf('health', 'rust-analyzer is degraded'));
    expect(ledger.take()).toEqual(['rust-analyzer is degraded']);
    ledger.observe(factOf('health', 'rust-analyzer is degraded'));
    expect(ledger.take()).toEqual([]);
    ledger.observe(factOf('health', 'rust-analyzer is ready again'));
    expect(ledger.take()).toEqual(['rust-analyzer is ready again']);
  });
});
