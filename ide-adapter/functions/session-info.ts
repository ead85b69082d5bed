/**
 * Functions about the session and its answers rather than the code: `status()` (the servers,
 * their states and why, what is missing and how to fix it, trust: the details behind every
 * one-line note), `page(list, start)` (the next part of a long list, as a cut answer names it),
 * and `explain(program)` (how an answer was made).
 */
import { EvalCode, printExpr, type Registry } from '../../dialect/index.js';
import { LIST_BUDGET, type Page } from '../paging.js';
import { trustCommand } from '../trust.js';
import { displayState, degradedReason, statusLine } from '../status.js';
import { observeFacts, type IdeHost } from './host.js';

/**
 * The trust line of `status()` when no restriction of an untrusted workspace is in force (a
 * restriction is a note of its own, with the command that lifts it).
 */
function trustLine(trusted: boolean | undefined, root: string): string {
  if (trusted === true) return 'trust: trusted';
  if (trusted === false) return `trust: untrusted (none of its programs run; nothing in use now is restricted by that). To trust it: ${trustCommand(root)}`;
  return 'trust: decided by the editor (nothing of the workspace is restricted now)';
}

/** Registers `status`, `page` and `explain`. */
export function registerSessionFunctions(registry: Registry<IdeHost>): void {
  registry.registerFunction({
    name: 'status',
    aliases: ['servers'],
    description:
      'The details behind the one-line notes: every language server with its state (idle, starting, indexing, ready, degraded, crashed, stopped, unavailable) and why, memory, what could not be loaded and how to fix it, and the workspace trust.',
    category: 'session',
    // The servers as the backend running them knows them: a background server's, not this process's.
    requires: 'servers',
    parameters: [],
    returns: 'string',
    examples: [{ program: 'status()' }],
    implementation: async (_args, ctx) => {
      const { backend, ledger, workspace } = ctx.host;
      // Without waiting or starting any server: what the servers say now, and the facts the session has seen.
      const now = await backend.waitUntilReady({ signal: ctx.signal, timeoutMs: 0, onlyPaths: true });
      observeFacts(ledger, now, workspace.root);
      ledger.take(); // told here in full
      const servers = backend.servers();
      const lines = [`workspace ${workspace.root}${backend.answeredBy === 'vscode' ? ' (answered by VS Code)' : ''}`];
      if (servers.length === 0) lines.push('servers: none (no language of this workspace has a server; search, findFiles, lines and gitdiff work)');
      for (const s of servers) {
        const line = statusLine(s, { memory: true });
        lines.push(`server ${line}`);
        const state = s.state === 'unavailable' ? 'unavailable: its files get text search only' : displayState(s);
        lines.push(s.state === 'idle' ? '  state: not started yet (it starts when a question needs its language)' : `  state: ${state}${s.pid !== undefined ? `, pid ${s.pid}` : ''}`);
        if (s.health !== undefined) lines.push(`  why degraded: ${degradedReason(s.health.message)}`, ...s.health.message.split('\n').map((l) => `    ${l}`));
        else if (s.detail !== undefined && s.state !== 'ready' && s.state !== 'indexing' && !line.includes(s.detail)) lines.push(`  why: ${s.detail}`);
      }
      // Each thing is said once: a note whose reason a server's lines above already give is left out.
      const said = servers.flatMap((s) => (s.detail !== undefined && s.detail !== '' ? [s.detail] : []));
      const facts = ledger.facts().filter((f) => !said.some((reason) => f.detail.includes(reason)));
      if (facts.length > 0) lines.push('notes:', ...facts.map((f) => `- ${f.detail}`));
      if (!facts.some((f) => f.key === 'untrusted')) lines.push(trustLine(now.trusted, workspace.root));
      return lines.join('\n');
    },
  });

  registry.registerFunction({
    name: 'page',
    aliases: ['more', 'next'],
    description: `A part of a long list: the items of \`list\` from the \`start\`th (1-based) on, at most \`size\` (default ${LIST_BUDGET.items}). A cut answer names the page() program that returns its next part.`,
    category: 'selection',
    requires: 'none',
    parameters: [
      { name: 'list', type: 'any', description: 'the program whose list to read', aliases: ['of'] },
      { name: 'start', type: 'number', description: 'the 1-based position of the first item', aliases: ['from', 'offset'] },
      { name: 'size', type: 'number', optional: true, description: `how many items (default ${LIST_BUDGET.items})`, aliases: ['limit'] },
    ],
    returns: 'any',
    examples: [{ program: 'page(search("src", "fn "), 101)' }],
    implementation: (args, ctx) => {
      const list = args['list'];
      if (!Array.isArray(list)) return ctx.fail(EvalCode.InvalidArgument, 'page needs a list', 'pass the program of a list, e.g. page(search("src", "fn "), 101)');
      const start = args['start'] as number;
      const size = (args['size'] as number | undefined) ?? LIST_BUDGET.items;
      if (!Number.isInteger(start) || start < 1) return ctx.fail(EvalCode.InvalidArgument, `start must be a whole number from 1, got ${start}`, 'page(list, 101) starts at the 101st item');
      if (!Number.isInteger(size) || size < 1) return ctx.fail(EvalCode.InvalidArgument, `size must be a whole number from 1, got ${size}`);
      const expr = ctx.call.args[0] ?? ctx.call.namedArgs.find((a) => a.name === 'list' || a.name === 'of')?.value;
      const of = expr !== undefined ? printExpr(expr, { mode: 'pretty', width: 10_000 }) : '…';
      return { items: list.slice(start - 1, start - 1 + size), page: { of, start, total: list.length } } satisfies Page;
    },
  });

  registry.registerFunction({
    name: 'explain',
    aliases: ['trace', 'why'],
    description:
      'Runs a program and shows how its answer was made: each step (call, conversion) with its time, the requests it sent to which server and how long they took, the candidates it saw and which it dropped and why (fuzzy workspace/symbol hits, use re-exports, filters, bounds), and how complete each step was. For a wrong or empty answer.',
    category: 'session',
    requires: 'none',
    parameters: [{ name: 'program', type: 'string', description: 'the program to run, as a string: explain(`findDefinition("User")`)' }],
    returns: 'any',
    examples: [{ program: 'explain(`findReferences(findDefinition("User"))`)' }],
    implementation: async (args, ctx) => {
      if (ctx.host.explain === undefined) return ctx.fail(EvalCode.InvalidArgument, 'explain is not available here');
      return ctx.host.explain(args['program'] as string, ctx.signal);
    },
  });
}
