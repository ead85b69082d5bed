#!/usr/bin/env node
// The `dialect` command. The CLI is TypeScript bundled into dist/bundle/ by `npm run build`
// (scripts/bundle.ts: a few files load much faster than the hundreds tsc's output and the
// dependencies are made of).
import { existsSync } from 'node:fs';
import v8 from 'node:v8';
import process from 'node:process';
import { setTimeout } from 'node:timers';
import { URL } from 'node:url';

// V8 pretenures objects from allocation sites whose objects survived before. After one large
// program (a megabyte of JSON), every small program's short-lived objects would then be allocated
// in the old generation: measured 2× slower parsing for the rest of a long-lived REPL or MCP
// process (BENCHMARKS.md). Set before anything else is loaded.
v8.setFlagsFromString('--no-allocation-site-pretenuring');

const main = new URL('../dist/bundle/cli/main.js', import.meta.url);
// `dialect eval` first asks the warm background server, from a bundle of one file that falls back to main.js.
const warmEval = new URL('../dist/bundle/cli/warm-eval.js', import.meta.url);
for (const file of [main, warmEval]) {
  if (!existsSync(file)) {
    process.stderr.write(`dialect: ${file.pathname} is missing — run npm run build (in ${new URL('..', import.meta.url).pathname})\n`);
    process.exit(1);
  }
}
const argv = process.argv.slice(2);
const code = argv.includes('eval') ? await (await import(warmEval.href)).runEvalCommandLine(argv) : await (await import(main.href)).runCli(argv);
process.exitCode = code;
// Everything is shut down by now; if a stray handle still keeps the event loop alive, do not hang.
setTimeout(() => process.exit(code), 5000).unref();
