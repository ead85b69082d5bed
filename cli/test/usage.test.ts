/** The command line: help, version, unknown options and commands (exit code 3 with a hint). */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommandLine, UsageError } from '../usage.js';
import { childEnv, repoRoot, requireFreshBuild, runDialect, tempDir } from './support/cli.js';

describe('parseCommandLine', () => {
  it('parses commands with their options and positionals', () => {
    expect(parseCommandLine(['eval', 'help()', '--json', '-w', 'x'])).toEqual({
      kind: 'command',
      name: 'eval',
      values: { json: true, workspace: 'x' },
      positionals: ['help()'],
    });
    expect(parseCommandLine(['eval', '-'])).toMatchObject({ positionals: ['-'] });
    expect(parseCommandLine(['eval', '--', '-1'])).toMatchObject({ positionals: ['-1'] });
    expect(parseCommandLine(['walkthrough', 'render', 'a.md', '-o', 'a.html', '--open'])).toMatchObject({ values: { output: 'a.html', open: true }, positionals: ['render', 'a.md'] });
    expect(parseCommandLine([])).toEqual({ kind: 'none' });
  });

  it('gives help for the program and for each command, even when arguments are missing', () => {
    expect(parseCommandLine(['--help'])).toMatchObject({ kind: 'help', text: expect.stringContaining('Usage: dialect COMMAND') as unknown });
    expect(parseCommandLine(['eval', '--help'])).toMatchObject({ kind: 'help', text: expect.stringContaining('Usage: dialect eval PROGRAM') as unknown });
    expect(parseCommandLine(['help', 'repl'])).toMatchObject({ kind: 'help', text: expect.stringContaining('Usage: dialect repl') as unknown });
    expect(parseCommandLine(['-V'])).toEqual({ kind: 'version' });
  });

  const usageError = (argv: string[]): UsageError => {
    try {
      parseCommandLine(argv);
    } catch (error) {
      if (error instanceof UsageError) return error;
      throw error;
    }
    throw new Error(`${argv.join(' ')} parsed`);
  };

  it('rejects unknown options with a "did you mean" and a pointer to --help', () => {
    const e = usageError(['eval', 'help()', '--jsn']);
    expect(e.message).toBe('dialect eval: unknown option --jsn');
    expect(e.hint).toContain('did you mean --json?');
    expect(e.hint).toContain('dialect eval --help');
    expect(usageError(['repl', '--json']).message).toBe('dialect repl: unknown option --json');
  });

  it('explains options given before the command', () => {
    expect(usageError(['--workspace', 'x', 'repl']).hint).toContain('options go after the command: dialect repl --workspace x');
  });

  it('rejects unknown commands, missing and extra arguments, missing option values', () => {
    expect(usageError(['evl']).hint).toContain('did you mean dialect eval?');
    expect(usageError(['eval']).message).toBe('dialect eval needs an argument');
    expect(usageError(['eval', 'findDefinitions(', '"User")']).hint).toContain('quote the whole program');
    expect(usageError(['repl', '-w']).message).toMatch(/argument missing/);
    expect(usageError(['tour', 'extra']).message).toContain('takes no arguments');
  });
});

describe('dialect (the built command)', () => {
  let state: Awaited<ReturnType<typeof tempDir>>;
  let env: Record<string, string>;
  beforeAll(async () => {
    requireFreshBuild();
    state = await tempDir('dialect-usage-');
    env = await childEnv(state.path);
  });
  afterAll(() => state.dispose());

  it('--help prints the usage on stdout and exits 0', async () => {
    const r = await runDialect(['--help'], { env });
    expect(r.code).toBe(0);
    for (const command of ['repl', 'eval', 'tour', 'walkthrough', 'mcp']) expect(r.stdout).toContain(`dialect ${command}`);
    expect(r.stdout).toContain('Exit codes: 0 value, 1 error, 2 ambiguity, 3 usage error');
    expect(r.stderr).toBe('');
  });

  it('COMMAND --help prints that command', async () => {
    const r = await runDialect(['eval', '--help'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: dialect eval PROGRAM/);
    expect(r.stdout).toContain('--json');
  });

  it('--version prints the version of package.json', async () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    const r = await runDialect(['--version'], { env });
    expect(r).toMatchObject({ code: 0, stdout: `dialect ${version}\n` });
  });

  it('an unknown option is a usage error: exit 3, the hint on stderr, nothing on stdout', async () => {
    const r = await runDialect(['eval', 'help()', '--jsn'], { env });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('dialect eval: unknown option --jsn');
    expect(r.stderr).toContain('did you mean --json?');
  });

  it('a missing workspace folder or a bad --timeout is a usage error', async () => {
    const missing = await runDialect(['eval', 'help()', '--workspace', join(state.path, 'nope')], { env });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('does not exist');
    const timeout = await runDialect(['eval', 'help()', '--timeout', 'soon'], { env, cwd: state.path });
    expect(timeout.code).toBe(3);
    expect(timeout.stderr).toContain('--timeout must be a number of seconds');
  });

  it('colours output only on a terminal or with FORCE_COLOR, and never with NO_COLOR', async () => {
    await writeFile(join(state.path, 'a.txt'), 'fn validate\n');
    const program = ['eval', 'search("a.txt", "validate")'];
    const plain = await runDialect(program, { env, cwd: state.path });
    expect(plain).toMatchObject({ code: 0, stdout: 'a.txt:1:4  fn validate\n' });
    const forced = await runDialect(program, { env: { ...env, FORCE_COLOR: '1' }, cwd: state.path });
    expect(forced.stdout).toBe('\u001b[36ma.txt:1:4\u001b[0m  fn validate\n');
    const none = await runDialect(program, { env: { ...env, FORCE_COLOR: '1', NO_COLOR: '1' }, cwd: state.path });
    expect(none.stdout).toBe('a.txt:1:4  fn validate\n');
  });

  it('a REPL on piped input evaluates each program, continues unfinished ones, and reports one left open', async () => {
    const r = await runDialect(['repl'], { env, cwd: state.path, input: 'findFiles("*.txt")\n[1,\n 2]\nfoo(\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('a.txt\n[1, 2]\nerror[unclosed-call]');
    expect(r.stdout).not.toContain('dialect>');
  });

  it('no command without a terminal is a usage error that lists the commands', async () => {
    const r = await runDialect([], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('a command is needed');
    expect(r.stderr).toContain('dialect repl');
  });
});
