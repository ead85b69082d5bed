/**
 * Globs matched on the main thread in linear time: the watch globs a language server registers
 * (`workspace/didChangeWatchedFiles`) and the detection globs of a definition (`filePatterns`, which
 * a trusted workspace's `dialect.json` writes). A glob library compiles to a backtracking regular
 * expression, and a server's glob holds names the workspace chose (rust-analyzer puts each crate's
 * folder in its watchers), so `*a*a*a*a*a*a*a*ab` against a 45-character name held the thread for
 * seconds, and longer ones for hours. Here a glob is compiled to a small automaton run on every
 * state at once (no backtracking): matching costs at most the path's length times the glob's.
 *
 * The syntax is LSP's (`*`, `?`, `**`, `{a,b}`, `[a-z]`, `[!a]`) plus `\` escapes, with picomatch's
 * meaning, which these globs had before: `*` and `?` stay within a path segment, `**` as a whole
 * segment spans any number of them (`a/**` matches `a` too), an unclosed `[` or `{` is literal.
 * Without `dot`, a wildcard does not match a `.` that begins a segment.
 */

/** A glob longer than this is not compiled: it matches every path (a watch answers too much, never too little). */
export const MAX_GLOB_CHARS = 4096;
/** Braces nested deeper than this are literal (compiling recurses once per level). */
const MAX_BRACE_DEPTH = 32;

/**
 * The work matchers may still do, shared by the matches of one batch (a batch of file changes, a
 * detection): one step per live state per character, one per match begun. Past it a matcher
 * answers yes without looking (a watch answers too much, never too little), so a batch costs at
 * most the budget, whatever the globs and the paths.
 */
export interface GlobBudget {
  steps: number;
}

/** A compiled glob: whether `path` matches, spending `budget` when given. */
export type GlobMatcher = (path: string, budget?: GlobBudget) => boolean;

/** Options of {@link compileGlob}. */
export interface GlobOptions {
  /** Whether wildcards match a `.` at the start of a segment (picomatch's `dot`); true. */
  readonly dot?: boolean;
}

const SLASH = 0x2f;
const DOT = 0x2e;

/** One instruction of the automaton. */
type Instruction =
  | { readonly op: 'char'; readonly code: number }
  /** Any one character but `/`. */
  | { readonly op: 'segment' }
  /** Any one character (the body of `**`). */
  | { readonly op: 'any' }
  | { readonly op: 'class'; readonly ranges: readonly (readonly [number, number])[]; readonly negated: boolean }
  | { readonly op: 'split'; x: number; y: number }
  | { readonly op: 'jump'; to: number }
  | { readonly op: 'match' };

/**
 * The matcher of `glob` against whole `/`-separated paths, linear in the path's length times the
 * glob's (and under `budget`, when given). A glob over {@link MAX_GLOB_CHARS} matches everything.
 */
export function compileGlob(glob: string, options: GlobOptions = {}): GlobMatcher {
  if (glob.length > MAX_GLOB_CHARS) return () => true;
  const automaton = new Automaton(new GlobCompiler(glob).compile());
  const dot = options.dot ?? true;
  return (path, budget) => automaton.matches(path, dot, budget);
}

/** Compiles a glob into instructions (a Thompson construction: alternatives and loops are splits). */
class GlobCompiler {
  readonly #glob: string;
  readonly #out: Instruction[] = [];
  #at = 0;

  /** Per `{`, the index of its `}`; -1 when none closes it (then it is literal). */
  readonly #braceClose: Int32Array;
  /** Per index, the nearest unescaped `]` from there on; -1 when a `/` or the end comes first. */
  readonly #classClose: Int32Array;

  constructor(glob: string) {
    this.#glob = glob;
    // One pass each way, so that no `{` or `[` scans the rest of the glob for its end.
    const escaped = new Uint8Array(glob.length);
    const opens: number[] = [];
    this.#braceClose = new Int32Array(glob.length).fill(-1);
    for (let i = 0; i < glob.length; i++) {
      if (escaped[i] === 1) continue;
      const c = glob[i];
      if (c === '\\' && i + 1 < glob.length) escaped[i + 1] = 1;
      else if (c === '{') opens.push(i);
      else if (c === '}' && opens.length > 0) this.#braceClose[opens.pop() as number] = i;
    }
    this.#classClose = new Int32Array(glob.length + 1).fill(-1);
    for (let i = glob.length - 1; i >= 0; i--) {
      const c = glob[i];
      this.#classClose[i] = c === '/' ? -1 : c === ']' && escaped[i] === 0 ? i : (this.#classClose[i + 1] as number);
    }
  }

  compile(): Instruction[] {
    this.#sequence(0, false);
    this.#emit({ op: 'match' });
    return this.#out;
  }

  #emit(instruction: Instruction): number {
    this.#out.push(instruction);
    return this.#out.length - 1;
  }

  /** Compiles up to the end, or (inside braces) up to the `,` or `}` that ends an alternative. */
  #sequence(depth: number, inBraces: boolean): void {
    const glob = this.#glob;
    while (this.#at < glob.length) {
      const c = glob[this.#at] as string;
      if (inBraces && (c === ',' || c === '}')) return;
      if (c === '\\' && this.#at + 1 < glob.length) {
        const width = (glob.codePointAt(this.#at + 1) as number) > 0xffff ? 2 : 1;
        this.#literal(glob.slice(this.#at + 1, this.#at + 1 + width));
        this.#at += 1 + width;
      } else if (c === '*') {
        this.#star();
      } else if (c === '?') {
        this.#emit({ op: 'segment' });
        this.#at++;
      } else if (c === '[' && this.#classEnd(this.#at) !== undefined) {
        this.#class();
      } else if (c === '{' && depth < MAX_BRACE_DEPTH && this.#braceEnd(this.#at) !== undefined) {
        this.#alternatives(depth);
      } else if (c === '/' && this.#isGlobstarAt(this.#at + 1) && this.#endsGlobstar(this.#at + 3)) {
        // `a/**`: `a` itself or anything below it.
        const split = this.#emit({ op: 'split', x: 0, y: 0 });
        this.#patchSplit(split, this.#out.length, -1);
        this.#emit({ op: 'char', code: SLASH });
        this.#anyRun();
        this.#patchSplit(split, -1, this.#out.length);
        this.#at += 3;
      } else {
        this.#literal(c);
        this.#at++;
      }
    }
  }

  #literal(text: string): void {
    for (let i = 0; i < text.length; i++) this.#emit({ op: 'char', code: text.charCodeAt(i) });
  }

  /** `*`, or `**`: as a whole segment any run of segments, else the same as `*`. */
  #star(): void {
    const at = this.#at;
    if (this.#isGlobstarAt(at) && this.#startsSegment(at)) {
      if (this.#glob[at + 2] === '/') {
        // `**/`: nothing, or anything ending in `/`.
        const split = this.#emit({ op: 'split', x: 0, y: 0 });
        this.#patchSplit(split, this.#out.length, -1);
        this.#anyRun();
        this.#emit({ op: 'char', code: SLASH });
        this.#patchSplit(split, -1, this.#out.length);
        this.#at += 3;
        return;
      }
      if (this.#endsGlobstar(at + 2)) {
        this.#anyRun();
        this.#at += 2;
        return;
      }
    }
    let end = at;
    while (this.#glob[end] === '*') end++;
    // Any run of characters within the segment.
    const loop = this.#emit({ op: 'split', x: 0, y: 0 });
    this.#emit({ op: 'segment' });
    this.#emit({ op: 'jump', to: loop });
    this.#patchSplit(loop, loop + 1, this.#out.length);
    this.#at = end;
  }

  /** Any run of characters, `/` included. */
  #anyRun(): void {
    const loop = this.#emit({ op: 'split', x: 0, y: 0 });
    this.#emit({ op: 'any' });
    this.#emit({ op: 'jump', to: loop });
    this.#patchSplit(loop, loop + 1, this.#out.length);
  }

  #patchSplit(index: number, x: number, y: number): void {
    const split = this.#out[index] as { op: 'split'; x: number; y: number };
    if (x >= 0) split.x = x;
    if (y >= 0) split.y = y;
  }

  #isGlobstarAt(at: number): boolean {
    return this.#glob[at] === '*' && this.#glob[at + 1] === '*';
  }

  /** Whether a `**` at `at` begins a segment (the glob's start, after `/`, or an alternative's start). */
  #startsSegment(at: number): boolean {
    const before = this.#glob[at - 1];
    return before === undefined || before === '/' || before === '{' || before === ',';
  }

  /** Whether a `**` ending before `at` ends its segment at the glob's or an alternative's end. */
  #endsGlobstar(at: number): boolean {
    const after = this.#glob[at];
    return after === undefined || after === ',' || after === '}';
  }

  /**
   * `{a,b,…}`: a split before each alternative leads into it or on to the next one's split; the
   * last one's other way is a dead end (the braces must match one of them), and every alternative
   * jumps past the end.
   */
  #alternatives(depth: number): void {
    const jumps: number[] = [];
    let previous: number | undefined;
    this.#at++; // `{`
    for (;;) {
      const split = this.#emit({ op: 'split', x: 0, y: 0 });
      if (previous !== undefined) this.#patchSplit(previous, -1, split);
      this.#patchSplit(split, split + 1, -1);
      this.#sequence(depth + 1, true);
      jumps.push(this.#emit({ op: 'jump', to: 0 }));
      previous = split;
      const c = this.#glob[this.#at];
      this.#at++;
      if (c !== ',') break; // `}`: the braces are balanced (checked before)
    }
    this.#patchSplit(previous, -1, this.#emit({ op: 'class', ranges: [], negated: false }));
    const end = this.#out.length;
    for (const jump of jumps) (this.#out[jump] as { op: 'jump'; to: number }).to = end;
  }

  /** The index of the `}` that closes the `{` at `open`, undefined when none does. */
  #braceEnd(open: number): number | undefined {
    const close = this.#braceClose[open] as number;
    return close < 0 ? undefined : close;
  }

  /** The index of the `]` that closes the class at `open`, undefined when none does (then `[` is literal). */
  #classEnd(open: number): number | undefined {
    let i = open + 1;
    if (this.#glob[i] === '!' || this.#glob[i] === '^') i++;
    if (this.#glob[i] === ']') i++; // a `]` first is a member
    const close = i < this.#glob.length ? (this.#classClose[i] as number) : -1;
    return close < 0 ? undefined : close;
  }

  #class(): void {
    const end = this.#classEnd(this.#at) as number;
    let i = this.#at + 1;
    const negated = this.#glob[i] === '!' || this.#glob[i] === '^';
    if (negated) i++;
    const ranges: [number, number][] = [];
    while (i < end) {
      let low = this.#glob.codePointAt(i) as number;
      if (low === 0x5c && i + 1 < end) low = this.#glob.codePointAt(++i) as number;
      i += low > 0xffff ? 2 : 1;
      let high = low;
      if (this.#glob[i] === '-' && i + 1 < end) {
        i++;
        high = this.#glob.codePointAt(i) as number;
        if (high === 0x5c && i + 1 < end) high = this.#glob.codePointAt(++i) as number;
        i += high > 0xffff ? 2 : 1;
      }
      ranges.push([Math.min(low, high), Math.max(low, high)]);
    }
    this.#emit({ op: 'class', ranges, negated });
    this.#at = end + 1;
  }
}

const OP_CHAR = 0;
const OP_SEGMENT = 1;
const OP_ANY = 2;
const OP_CLASS = 3;
const OP_SPLIT = 4;
const OP_JUMP = 5;
const OP_MATCH = 6;

/** A compiled glob in flat arrays: the inner loop reads numbers only. */
class Automaton {
  readonly ops: Uint8Array;
  /** The code unit of `char`, the class's index, a split's first way, a jump's target. */
  readonly first: Int32Array;
  /** A split's second way. */
  readonly second: Int32Array;
  readonly classes: { readonly ranges: readonly (readonly [number, number])[]; readonly negated: boolean }[] = [];

  constructor(program: readonly Instruction[]) {
    this.ops = new Uint8Array(program.length);
    this.first = new Int32Array(program.length);
    this.second = new Int32Array(program.length);
    program.forEach((instruction, pc) => {
      switch (instruction.op) {
        case 'char':
          this.ops[pc] = OP_CHAR;
          this.first[pc] = instruction.code;
          break;
        case 'segment':
          this.ops[pc] = OP_SEGMENT;
          break;
        case 'any':
          this.ops[pc] = OP_ANY;
          break;
        case 'class':
          this.ops[pc] = OP_CLASS;
          this.first[pc] = this.classes.push(instruction) - 1;
          break;
        case 'split':
          this.ops[pc] = OP_SPLIT;
          this.first[pc] = instruction.x;
          this.second[pc] = instruction.y;
          break;
        case 'jump':
          this.ops[pc] = OP_JUMP;
          this.first[pc] = instruction.to;
          break;
        case 'match':
          this.ops[pc] = OP_MATCH;
          break;
      }
    });
  }

  /** Runs on `path`: every live state advanced at once, each state at most once per character. */
  matches(path: string, dot: boolean, budget: GlobBudget | undefined): boolean {
    const { ops, first, second, classes } = this;
    const size = ops.length;
    let current = new Int32Array(size);
    let next = new Int32Array(size);
    let currentCount = 0;
    let nextCount = 0;
    // The step at which each state was last added: a state is added once per step.
    const seen = new Int32Array(size).fill(-1);
    // Each state popped for the first time in a step pushes at most two: the stack never holds more.
    const stack = new Int32Array(2 * size + 1);
    let step = 0;
    /** Adds `start` and every state it leads to without reading a character to `next`. */
    const add = (start: number): void => {
      let top = 0;
      stack[top++] = start;
      while (top > 0) {
        const pc = stack[--top] as number;
        if (seen[pc] === step) continue;
        seen[pc] = step;
        const op = ops[pc];
        if (op === OP_SPLIT) {
          stack[top++] = second[pc] as number;
          stack[top++] = first[pc] as number;
        } else if (op === OP_JUMP) {
          stack[top++] = first[pc] as number;
        } else {
          next[nextCount++] = pc;
        }
      }
    };
    add(0);
    [current, next, currentCount, nextCount] = [next, current, nextCount, 0];
    for (let i = 0; i < path.length; ) {
      if (budget !== undefined && (budget.steps -= currentCount + 1) < 0) return true;
      const code = path.codePointAt(i) as number;
      const width = code > 0xffff ? 2 : 1;
      const hiddenDot = !dot && code === DOT && (i === 0 || path.charCodeAt(i - 1) === SLASH);
      step++;
      for (let k = 0; k < currentCount; k++) {
        const pc = current[k] as number;
        const op = ops[pc];
        let takes = false;
        if (op === OP_CHAR) {
          if (width === 1) takes = first[pc] === code;
          // A code point above the BMP against two literal units in a row.
          else if (first[pc] === path.charCodeAt(i) && ops[pc + 1] === OP_CHAR && first[pc + 1] === path.charCodeAt(i + 1)) add(pc + 2);
        } else if (op === OP_SEGMENT) {
          takes = code !== SLASH && !hiddenDot;
        } else if (op === OP_ANY) {
          takes = !hiddenDot;
        } else if (op === OP_CLASS && code !== SLASH && !hiddenDot) {
          const { ranges, negated } = classes[first[pc] as number] as Automaton['classes'][number];
          takes = ranges.some(([low, high]) => code >= low && code <= high) !== negated;
        }
        if (takes) add(pc + 1);
      }
      if (nextCount === 0) return false;
      [current, next, currentCount, nextCount] = [next, current, nextCount, 0];
      i += width;
    }
    for (let k = 0; k < currentCount; k++) if (ops[current[k] as number] === OP_MATCH) return true;
    return false;
  }
}
