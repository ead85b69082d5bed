/**
 * tsgo never installs packages for a workspace. Its automatic type acquisition runs `npm install
 * @types/…` for the dependencies a JavaScript workspace's package.json names (seen on
 * expressjs/express, untrusted: 28 packages fetched into ~/.cache/typescript, tsgo `indexing
 * (Installing types for 'express')` for minutes, every question past its deadline). Dialect turns
 * it off: answers come from what is on disk. Real tsgo; an `npm` first on PATH that records its
 * calls and fails; a fresh typings cache (XDG_CACHE_HOME) so acquisition has something to do.
 */
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusLine } from '../status.js';
import { typeScriptServer } from '../languages/typescript/index.js';
import { IdeSession } from '../session.js';
import { requireServer } from './support/servers.js';

const available = (await requireServer(typeScriptServer)) !== undefined;

describe.runIf(available)('tsgo type acquisition (real tsgo, a plain JavaScript package)', () => {
  let base: string;
  let root: string;
  let marker: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'dialect-ata-')));
    root = join(base, 'app');
    marker = join(base, 'npm-calls');
    await mkdir(join(root, 'lib'), { recursive: true });
    await writeFile(join(root, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', main: 'lib/app.js', dependencies: { express: '^4.21.0', debug: '^4.0.0' } }));
    await writeFile(join(root, 'lib', 'app.js'), "'use strict';\nvar express = require('express');\nvar debug = require('debug')('app');\n\nfunction createServer() {\n  debug('start');\n  return express();\n}\n\nmodule.exports = createServer;\n");
    await mkdir(join(base, 'bin'));
    await writeFile(join(base, 'bin', 'npm'), `#!/bin/sh\necho "$@" >> '${marker}'\nexit 1\n`);
    await chmod(join(base, 'bin', 'npm'), 0o755);
    env = { PATH: `${join(base, 'bin')}:${process.env.PATH ?? ''}`, XDG_CACHE_HOME: join(base, 'cache'), HOME: join(base, 'home') };
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('runs no npm and reports no installing, and the question is answered', async () => {
    const session = await IdeSession.open({ workspaceRoot: root, trusted: false, env, readyTimeoutMs: 60_000 });
    const lines: string[] = [];
    const stop = session.backend.onStatus((s) => lines.push(statusLine(s)));
    try {
      const o = await session.evaluate('findDefinitions("createServer")', { deadlineMs: 60_000 });
      expect(o.kind).toBe('value');
      expect(lines.filter((l) => /Installing types/i.test(l)), lines.join('\n')).toEqual([]);
      expect(existsSync(marker) ? await readFile(marker, 'utf8') : '').toBe('');
    } finally {
      stop();
      await session.shutdown();
    }
  }, 120_000);
});
