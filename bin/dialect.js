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
if (!existsSync(main)) {
  process.stderr.write(`dialect: ${main.pathname} is missing — run npm run build (in ${new URL('..', import.meta.url).pathname})\n`);
  process.exit(1);
}
const { runCli } = await import(main.href);
const code = await runCli(process.argv.slice(2));
process.exitCode = code;
// Everything is shut down by now; if a stray handle still keeps the event loop alive, do not hang.
setTimeout(() => process.exit(code), 5000).unref();
