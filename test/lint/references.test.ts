/**
 * Every reference a comment or a doc makes resolves inside the repository (docs/architecture.md
 * rule 14): a repository path names a file or folder that exists, a cited heading or rule number
 * exists in its doc under docs/, and nothing cites notes kept outside the repository (the old
 * citations by section sign, by rule number without the doc, or by a path beside the repository:
 * `STALE_CITATIONS` and `OUTSIDE` below). Comments are read with TypeScript's own parser (so `//`
 * inside a string or a URL is not a comment) from every source file; the docs are README.md and
 * the Markdown files of docs/. Each failure lists the offenders as `file:line: what`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
/** Not the project's own text: dependencies, build output, test artefacts, binary assets. */
const SKIP_DIRS = new Set(['node_modules', '.git', 'out', 'dist', 'release', 'coverage', 'test-results', 'playwright-report']);
const CODE_EXT = /\.(?:ts|tsx|mts|js|mjs|cjs)$/;
const CSS_EXT = /\.(?:css|html)$/;
/** Configuration and scripts whose comments are `#` lines. */
const HASH_COMMENTED = /\.(?:ya?ml|sh)$|^\.ci\/run$/;

/** Every file and folder of the repository, as repo-relative posix paths (folders with a trailing slash). */
function walk(dir = ROOT, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name)) continue;
    const abs = path.join(dir, name);
    const rel = path.relative(ROOT, abs).split(path.sep).join('/');
    if (statSync(abs).isDirectory()) {
      out.push(`${rel}/`);
      walk(abs, out);
    } else out.push(rel);
  }
  return out;
}
const ENTRIES = walk();
const ENTRY_SET = new Set(ENTRIES);
const FILES = ENTRIES.filter((e) => !e.endsWith('/'));
const TOP_LEVEL = new Set(ENTRIES.filter((e) => e.endsWith('/') && e.indexOf('/') === e.length - 1).map((e) => e.slice(0, -1)));
const DIRS = ENTRIES.filter((e) => e.endsWith('/'));
/** Whether `dir` (`narrow/`, `sync/engine/`) ends the path of one of the repository's folders: a path in it is ours. */
const isOurFolder = (dir: string): boolean => DIRS.some((d) => d === dir || d.endsWith(`/${dir}`));

interface Text {
  file: string;
  line: number;
  text: string;
  /** Where the comment is in the file, so the file's code can be read without it. */
  range?: [number, number];
}

/** A comment's words without its markers, lines joined, so a citation broken over lines reads whole. */
function commentWords(raw: string): string {
  return raw
    .replace(/^\/\*+|\*+\/$/g, '')
    .split('\n')
    .map((l) => l.replace(/^\s*(?:\/\/+|\*+(?!\/))?\s?/, ''))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function lineOf(text: string, pos: number): number {
  let n = 1;
  for (let i = 0; i < pos; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** The comments of a TypeScript or JavaScript file: the leading trivia of every token, JSX included. */
function codeComments(file: string, text: string): Text[] {
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : file.endsWith('.ts') || file.endsWith('.mts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const seen = new Map<number, Text>();
  const visit = (node: ts.Node): void => {
    for (const r of ts.getLeadingCommentRanges(text, node.pos) ?? []) {
      if (!seen.has(r.pos)) seen.set(r.pos, { file, line: lineOf(text, r.pos), text: commentWords(text.slice(r.pos, r.end)), range: [r.pos, r.end] });
    }
    for (const child of node.getChildren(sf)) visit(child);
  };
  visit(sf);
  return [...seen.values()];
}

/** `/* ... *\/` in CSS, `<!-- ... -->` in HTML. */
function blockComments(file: string, text: string): Text[] {
  const out: Text[] = [];
  for (const m of text.matchAll(/\/\*[\s\S]*?\*\/|<!--[\s\S]*?-->/g)) {
    out.push({ file, line: lineOf(text, m.index), text: commentWords(m[0].replace(/^<!--|-->$/g, '')) });
  }
  return out;
}

/** Whole-line `#` comments (YAML, shell), consecutive lines joined; a shebang is not a comment. */
function hashComments(file: string, text: string): Text[] {
  const out: Text[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*#(?!!)/.test(lines[i]!)) continue;
    const start = i;
    while (i + 1 < lines.length && /^\s*#(?!!)/.test(lines[i + 1]!)) i++;
    out.push({ file, line: start + 1, text: commentWords(lines.slice(start, i + 1).map((l) => l.replace(/^\s*#+/, '')).join('\n')) });
  }
  return out;
}

/** A Markdown file as one text per paragraph (code fences kept: the layout block names paths too). */
function docParagraphs(file: string, text: string): Text[] {
  const out: Text[] = [];
  let start = 0;
  const lines = text.split('\n');
  for (let i = 0; i <= lines.length; i++) {
    if (i === lines.length || lines[i]!.trim() === '') {
      if (i > start) out.push({ file, line: start + 1, text: lines.slice(start, i).join(' ').replace(/\s+/g, ' ') });
      start = i + 1;
    }
  }
  return out;
}

const DOCS = FILES.filter((f) => f === 'README.md' || /^docs\/[^/]+\.md$/.test(f));

/** The headings of each doc (code fences skipped), and the rule numbers of `### Rule N:` headings. */
function headingsOf(doc: string): { headings: Set<string>; slugs: Set<string>; rules: Set<number>; repeated: string[] } {
  const headings = new Set<string>();
  const repeated: string[] = [];
  const slugs = new Set<string>();
  const rules = new Set<number>();
  let fenced = false;
  for (const line of readFileSync(path.join(ROOT, doc), 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.+?)\s*#*$/.exec(line);
    if (!m) continue;
    const h = m[1]!.replace(/`/g, '');
    if (headings.has(h.toLowerCase())) repeated.push(h);
    headings.add(h.toLowerCase());
    slugs.add(h.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-'));
    const rule = /^Rule (\d+)\b/.exec(h);
    if (rule) rules.add(Number(rule[1]));
  }
  return { headings, slugs, rules, repeated };
}
const HEADINGS = new Map(DOCS.map((d) => [d, headingsOf(d)]));

/** Old ways of citing notes that are not in the repository; `true`: a citation form the docs themselves may use. */
const STALE_CITATIONS: Array<[RegExp, string, boolean]> = [
  [/\b(?:design|API|reference|Zulip) notes\b/i, 'cites notes outside the repository', false],
  [/§/, 'cites a numbered section (§) of notes outside the repository; cite a docs/ heading', false],
  [/\(notes\b(?![- ]to[- ]self)|\bthe notes\b(?![- ]to[- ]self)|\bnotes['’]|\bnotes "/i, 'cites "the notes", which are not in the repository', false],
  [/\barchitecture rules?\b/i, 'cites an architecture rule without its file: docs/architecture.md rule N', true],
  [/\bsync design\b/i, 'cites the sync design without its file: docs/sync-design.md "Heading"', true],
  [/(?<![\w/])(?<!docs\/)(?:sync-design|architecture|zulip-behaviour)\.md\b/, 'names a doc without its folder: docs/NAME.md', true],
  [/\bhabits\b/i, 'cites "the habits" of notes outside the repository', false],
];

/** A path into the team's shared folder beside the repository: files outside it. */
const OUTSIDE = /(?:\.\.\/)+shared\b|\/work\/shared\b|(?<![\w./-])shared\/(?:docs|reference|spec)\//g;

/** A path-like word: `a/b`, `a/b.ts`, `./a/b/`; URLs are removed before this runs. */
const PATH_WORD = /(?<![\w./:@#*{}-])(?:\.{1,2}\/)?(?:[\w.*{}-]+\/)+[\w.*{}-]*/g;
const SOURCE_EXT = /\.(?:ts|tsx|mts|js|mjs|cjs|css|html|md|json|ya?ml)$/;
/** Patterns and placeholders, not paths: `NNNN-name.ts`, `accounts/NAME.uploads`, `x.ts`, `...`. */
const PLACEHOLDER = /NNNN|NAME|\.\.\.|…|\*|[{}<>$]|(?:^|\/)x\.ts$/;

function pathProblem(word: string): string | undefined {
  const p = word.replace(/[.,;:]+$/, '').replace(/^\.\//, '');
  if (PLACEHOLDER.test(p) || p.startsWith('../')) return undefined;
  const first = p.split('/')[0]!;
  // An import names `x.js` for the source `x.ts` (or `x.tsx`).
  const spellings = [p, p.replace(/\.js$/, '.ts'), p.replace(/\.js$/, '.tsx')];
  if (TOP_LEVEL.has(first)) {
    return spellings.some((s) => ENTRY_SET.has(s) || ENTRY_SET.has(`${s}/`)) ? undefined : `${p} does not exist`;
  }
  // A partial path in one of our folders (`engine/session.ts`, `narrow/TypingLine.tsx`) must end some
  // file's path; one whose folders are not ours (Zulip's `web/src/hash_parser.ts`) is someone else's.
  const dir = p.slice(0, p.lastIndexOf('/') + 1);
  if (SOURCE_EXT.test(p) && isOurFolder(dir) && !spellings.some((s) => FILES.some((f) => f.endsWith(`/${s}`)))) return `${p} matches no file`;
  return undefined;
}

/** A doc's path followed by a quoted heading (a comma between allowed), by `rule N` / `rules N and M`, or by `#slug`. */
function docCitationProblems(text: string): string[] {
  const out: string[] = [];
  const quoted = /["“]([^"”]+)["”]/g;
  for (const m of text.matchAll(/(?<![\w./-])docs\/([\w-]+\.md)(#[\w-]+)?(?:[,:]?\s+)?(?:((?:["“][^"”]+["”](?:\s*(?:,|and|or)\s*(?=["“]))?)+)|(rules?\s+\d+(?:\s*(?:,|and|or|-|–)\s*\d+)*)|(§))?/g)) {
    const doc = `docs/${m[1]}`;
    const h = HEADINGS.get(doc);
    if (!h) {
      out.push(`${doc} does not exist`);
      continue;
    }
    if (m[2] && !h.slugs.has(m[2].slice(1))) out.push(`${doc}${m[2]}: no such heading`);
    for (const [, heading = ''] of m[3]?.matchAll(quoted) ?? []) {
      if (!h.headings.has(heading.replace(/`/g, '').trim().toLowerCase())) out.push(`${doc} "${heading}": no such heading`);
    }
    if (m[4]) {
      for (const n of m[4].match(/\d+/g) ?? []) if (!h.rules.has(Number(n))) out.push(`${doc} rule ${n}: no such rule`);
    }
    if (m[5]) out.push(`${doc} §: cite a heading or a rule`);
  }
  return out;
}

/** Markdown links `[text](target#slug)`: resolved from the doc's folder, the slug against the target's headings. */
function linkProblems(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1]!;
    if (/^[a-z][\w+.-]*:/i.test(target)) continue;
    const [rel = '', slug] = target.split('#');
    const doc = rel === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), rel));
    if (!ENTRY_SET.has(doc) && !ENTRY_SET.has(`${doc}/`)) out.push(`link to ${target}: ${doc} does not exist`);
    else if (slug !== undefined && HEADINGS.has(doc) && !HEADINGS.get(doc)!.slugs.has(slug)) out.push(`link to ${target}: no such heading`);
  }
  return out;
}

function problems(t: Text, codeOfFile: string): string[] {
  const out: string[] = [];
  const text = t.text.replace(/\b[a-z][\w+.-]*:\/\/\S+/gi, ' ');
  // The docs name each other by file name and their own titles; only the citation forms are checked there.
  const inDocs = t.file.startsWith('docs/');
  for (const [re, why, citationForm] of STALE_CITATIONS) {
    if (inDocs && citationForm) continue;
    const m = re.exec(text);
    if (m) out.push(`${why} ("${m[0]}")`);
  }
  if (t.file.endsWith('.md')) out.push(...linkProblems(t.file, t.text));
  for (const m of text.matchAll(OUTSIDE)) {
    // A location the file's code reads (a test's data file), not a citation.
    if (!codeOfFile.includes(m[0])) out.push(`cites ${m[0]}, outside the repository`);
  }
  out.push(...docCitationProblems(text));
  for (const m of text.matchAll(PATH_WORD)) {
    const why = pathProblem(m[0]);
    if (why) out.push(why);
  }
  return out;
}

/** The file's text without its comments: what its code itself says. */
function codeOnly(text: string, comments: readonly Text[]): string {
  let code = '';
  let at = 0;
  for (const c of [...comments].sort((a, b) => (a.range?.[0] ?? 0) - (b.range?.[0] ?? 0))) {
    if (!c.range) continue;
    code += text.slice(at, c.range[0]);
    at = c.range[1];
  }
  return code + text.slice(at);
}

function offenders(): string[] {
  const out: string[] = [];
  for (const file of FILES) {
    const isCode = CODE_EXT.test(file);
    const isDoc = DOCS.includes(file);
    const isHash = HASH_COMMENTED.test(file);
    if (!isCode && !CSS_EXT.test(file) && !isDoc && !isHash) continue;
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    const texts = isDoc ? docParagraphs(file, text) : isCode ? codeComments(file, text) : isHash ? hashComments(file, text) : blockComments(file, text);
    const code = isCode ? codeOnly(text, texts) : '';
    for (const t of texts) for (const p of problems(t, code)) out.push(`${t.file}:${t.line}: ${p}`);
  }
  return out;
}

describe('references in comments and docs', () => {
  const found = offenders();

  it('every comment and doc cites only files, headings and rules that exist in the repository', () => {
    expect(found).toEqual([]);
  });

  it('every heading of a doc under docs/ is unique, so a citation of it names one place', () => {
    const repeated = [...HEADINGS].filter(([doc]) => doc.startsWith('docs/')).flatMap(([doc, h]) => h.repeated.map((r) => `${doc}: "${r}" twice`));
    expect(repeated).toEqual([]);
  });

  it('finds what it looks for (a stale path, a missing heading and rule, the old citations)', () => {
    const probe = (text: string) => problems({ file: 'probe.ts', line: 1, text }, '');
    expect(probe('see sync/engine/changes.ts')).toEqual(['sync/engine/changes.ts does not exist']);
    expect(probe('see engine/seams.ts')).toEqual(['engine/seams.ts matches no file']);
    expect(probe('see sync/engine/seams.ts')).toEqual(['sync/engine/seams.ts does not exist']);
    expect(probe('docs/sync-design.md "No such heading here"')).toEqual(['docs/sync-design.md "No such heading here": no such heading']);
    expect(probe('docs/architecture.md rule 99')).toEqual(['docs/architecture.md rule 99: no such rule']);
    expect(probe('docs/nothing.md')).toHaveLength(2);
    expect(probe('(see ../shared/docs/sync-design.md)').join()).toContain('outside the repository');
    expect(probe('(see the design notes)').join()).toContain('notes outside the repository');
    expect(probe('(API notes §8)')).toHaveLength(2);
    expect(probe('(architecture rule 7)').join()).toContain('docs/architecture.md rule N');
    expect(probe('(sync design: Deadlines)').join()).toContain('docs/sync-design.md');
    expect(probe('docs/zulip-behaviour.md "Events", "No such part"')).toEqual(['docs/zulip-behaviour.md "No such part": no such heading']);
    const inDoc = (text: string) => problems({ file: 'docs/architecture.md', line: 1, text }, '');
    expect(inDoc('see [the design](sync-design.md#no-such-heading)')).toEqual(['link to sync-design.md#no-such-heading: no such heading']);
    expect(inDoc('see [the design](gone.md)')).toEqual(['link to gone.md: docs/gone.md does not exist']);
  });

  it('leaves alone what is not a citation of ours: URLs, Zulip files, notes to self, existing paths', () => {
    const probe = (text: string) => problems({ file: 'probe.ts', line: 1, text }, '');
    expect(probe('as https://github.com/zulip/zulip/blob/main/web/src/hash_parser.ts does')).toEqual([]);
    expect(probe("after Zulip's zerver/lib/narrow.py and web/src/hash_parser.ts, shared/src/internal_url.ts")).toEqual([]);
    // A folder of ours with the same name as one of Zulip's does not make Zulip's path ours.
    expect(probe("Zulip's src/api/route/messages.ts, static/js/x.js")).toEqual([]);
    expect(probe('the user alone for notes to self')).toEqual([]);
    expect(probe('sync/db/changes.ts, sync/base/seams.ts, sync/db/narrow/, engine/session.ts')).toEqual([]);
    expect(probe('docs/sync-design.md "Deadlines", docs/architecture.md rules 6 and 7')).toEqual([]);
    expect(probe('migrations/NNNN-name.ts, accounts/NAME.uploads/')).toEqual([]);
    expect(probe("import from './sync/api/index.js'")).toEqual([]);
    const inDoc = (text: string) => problems({ file: 'docs/architecture.md', line: 1, text }, '');
    expect(inDoc('[sync-design.md](sync-design.md#the-event-stream), [README](../README.md), [web](https://zulip.com/api/)')).toEqual([]);
  });
});

describe("the README's library list", () => {
  it('names every dependency and devDependency of package.json, in bold, under "Why these libraries"', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const start = readme.indexOf('\n## Why these libraries');
    expect(start).toBeGreaterThan(0);
    const end = readme.indexOf('\n## ', start + 1);
    const section = readme.slice(start, end === -1 ? undefined : end);
    const named = new Set([...section.matchAll(/\*\*([@\w./-]+)\*\*/g)].map((m) => m[1]));
    const missing = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((name) => !named.has(name));
    expect(missing).toEqual([]);
  });
});
