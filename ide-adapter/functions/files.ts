/**
 * File functions: regex search, finding files by glob, reading lines, and git diffs. They need no
 * language server and are confined to the workspace.
 */
import picomatch from 'picomatch';
import type { Registry } from '../../dialect/index.js';
import { gitDiff } from '../git.js';
import type { Location } from '../model.js';
import { searchWorkspace } from '../search.js';
import { walkFiles } from '../walk.js';
import type { IdeHost } from './host.js';

const MAX_FILES = 1000;

export function registerFileFunctions(registry: Registry<IdeHost>): void {
  registry.registerFunction({
    name: 'search',
    aliases: ['grep', 'searchFiles'],
    description:
      'Searches a file, or every file under a folder (respecting .gitignore), for a regular expression (JavaScript syntax), one result per match with the line it is on. Use a backtick string to write backslashes as they are: `fn\\s+login`.',
    category: 'search',
    parameters: [
      { name: 'path', type: 'string', description: 'a file or folder of the workspace ("." for all)', aliases: ['in', 'dir', 'file'] },
      { name: 'regex', type: 'string', description: 'the pattern', aliases: ['pattern', 'query'] },
      { name: 'extension', type: 'string | string[]', optional: true, description: 'only files with this extension, e.g. ".rs"', aliases: ['ext', 'extensions'] },
    ],
    returns: 'location[]',
    examples: [
      { program: 'search("src/auth.rs", "fn validate")' },
      { program: 'search("src", `fn\\s+login`, ".rs")' },
    ],
    implementation: async (args, ctx) => {
      const ext = args['extension'];
      const extensions = ext === undefined ? [] : Array.isArray(ext) ? (ext as string[]) : [ext as string];
      const result = await searchWorkspace(ctx.host.workspace, args['path'] as string, args['regex'] as string, { extensions, signal: ctx.signal });
      if (result.total > result.matches.length) ctx.note(`showing the first ${result.matches.length} of ${result.total} matches; narrow the path or the pattern`);
      return result.matches;
    },
  });

  registry.registerFunction({
    name: 'findFiles',
    aliases: ['files', 'glob'],
    description: 'Workspace files whose path matches a glob (`**/*.rs`, `src/**/model*`); a pattern without `/` matches file names anywhere. Respects .gitignore.',
    category: 'search',
    parameters: [
      { name: 'glob', type: 'string', description: 'the pattern', aliases: ['pattern', 'name'] },
      { name: 'path', type: 'string', optional: true, default: '.', description: 'only under this folder' },
    ],
    returns: 'string[]',
    examples: [{ program: 'findFiles("*.rs")' }, { program: 'findFiles("**/mod.rs", "src")' }],
    implementation: async (args, ctx) => {
      const glob = args['glob'] as string;
      const isMatch = picomatch(glob, { dot: true, basename: !glob.includes('/') });
      const { files } = await walkFiles(ctx.host.workspace, args['path'] as string, { signal: ctx.signal });
      const matched = files.filter((f) => isMatch(f));
      if (matched.length > MAX_FILES) ctx.note(`showing ${MAX_FILES} of ${matched.length} files; narrow the pattern`);
      return matched.slice(0, MAX_FILES);
    },
  });

  registry.registerFunction({
    name: 'lines',
    aliases: ['readLines'],
    description: 'Lines start..end (1-based, inclusive) of a workspace file, as a location whose `text` holds them.',
    category: 'search',
    parameters: [
      { name: 'path', type: 'string', description: 'a workspace file', aliases: ['file'] },
      { name: 'start', type: 'number', description: 'first line (from 1)', aliases: ['from'] },
      { name: 'end', type: 'number', optional: true, description: 'last line (default: start)', aliases: ['to'] },
    ],
    returns: 'location',
    examples: [{ program: 'lines("src/main.rs", 1, 20)' }],
    implementation: async (args, ctx) => {
      const { workspace } = ctx.host;
      const path = workspace.relative(await workspace.resolveReal(args['path'] as string));
      const start = args['start'] as number;
      const end = (args['end'] as number | undefined) ?? start;
      const lines = await workspace.readLines(path, start, end);
      const last = start + lines.length - 1;
      const location: Location & { text: string } = {
        path,
        start: { line: start, column: 1 },
        end: { line: last, column: [...(lines[lines.length - 1] ?? '')].length + 1 },
        content: lines[0] ?? '',
        text: lines.join('\n'),
      };
      if (last < end) ctx.note(`${path} ends at line ${last}`);
      return location;
    },
  });

  registry.registerFunction({
    name: 'gitdiff',
    aliases: ['gitDiff', 'diff'],
    description:
      'Changed files and hunks from git: a range "A..B" compares commits; a single revision (default HEAD) compares it with the working tree, including staged and unstaged changes unless excluded.',
    category: 'git',
    parameters: [
      { name: 'range', type: 'string', optional: true, description: 'e.g. "HEAD~2..HEAD", "main", or omitted for uncommitted changes' },
      { name: 'excludeUnstaged', type: 'boolean', optional: true, description: 'leave out changes not yet staged' },
      { name: 'excludeStaged', type: 'boolean', optional: true, description: 'leave out staged changes' },
    ],
    returns: 'object[]',
    examples: [{ program: 'gitdiff("HEAD~1..HEAD")' }, { program: 'gitdiff()' }],
    implementation: async (args, ctx) =>
      gitDiff(ctx.host.workspace, args['range'] as string | undefined, {
        excludeUnstaged: args['excludeUnstaged'] === true,
        excludeStaged: args['excludeStaged'] === true,
        signal: ctx.signal,
      }),
  });
}
