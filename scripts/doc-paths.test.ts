// Every repo path a doc or a code comment names exists, and no doc comment is stacked on another's declaration:
// a stale path sends the reader to a file that moved, and of two doc comments in a row the editor shows only the
// last, so the first is a sentence about something else left behind. Checked: every Markdown file and every
// comment of every code file (tests included), prisma/migrations aside (history names the tree as it was).
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import ts from "typescript";
import { PROJECT_ROOT } from "../lib/paths";

const CODE = /\.(ts|tsx|mjs)$/;
/** Not the project's own text: installed packages, the generated Prisma client, dot folders (.git, .next, .data…). */
const SKIP = new Set(["node_modules", "generated"]);
/** Names that are not this project's files: what a documented command writes, an example name or argument. */
const NOT_OURS = new Set(["summary.json", "out.json", "FILE-queues-Q.json", "x.test.ts", "path/to/published-results.json"]);

/** Markdown and code files, relative to the project root. */
function checkedFiles(dir = "", out: string[] = []): string[] {
  for (const e of readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, e.name);
    if (SKIP.has(e.name) || e.name.startsWith(".") || rel === "prisma/migrations") continue;
    if (e.isDirectory()) checkedFiles(rel, out);
    else if ((CODE.test(e.name) && !e.name.endsWith(".d.ts")) || e.name.endsWith(".md")) out.push(rel);
  }
  return out;
}

function parse(file: string, text: string): ts.SourceFile {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : file.endsWith(".mjs") ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
}

/** Every comment of a code file once, with the line it starts on (from the syntax tree: never a string's `//`). */
function comments(source: ts.SourceFile): { line: number; text: string }[] {
  const text = source.text;
  const found = new Map<number, { line: number; text: string }>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) {
      if (!found.has(r.pos)) found.set(r.pos, { line: source.getLineAndCharacterOfPosition(r.pos).line + 1, text: text.slice(r.pos, r.end) });
    }
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.getFullStart()));
    collect(ts.getTrailingCommentRanges(text, node.getEnd()));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...found.values()];
}

const FILE = /(?<![\w@./-])[\w@./-]+\.(?:ts|tsx|md|sql|json|mjs)(?![\w-])/g;
const FOLDER = /(?<![\w@./-])(?:[\w@.-]+\/)+(?![\w@<*{[$-]|\.\w)/g;

/** The repo paths a text names, files by their extension and folders by their trailing slash, with their offsets.
 *  Left out: a placeholder's tail (the `/runner.ts` of `<kind>/runner.ts`, the tail of `*.test.ts`), absolute
 *  paths, URLs, another project's file shown as a link's text (`[results/x.md](https://…)`), the alias `@/`. */
function namedPaths(text: string): { name: string; at: number }[] {
  const out: { name: string; at: number }[] = [];
  for (const re of [FILE, FOLDER]) {
    for (const m of text.matchAll(re)) {
      const name = m[0];
      const at = m.index;
      const word = text.slice(0, at).split(/\s/).pop() ?? "";
      const url = word.includes("://") || text.startsWith("](http", at + name.length);
      const placeholder = /[<>{}*$[\]]$/.test(text.slice(0, at)); // `<kind>/…`, `*.test.ts`, `${dir}/…`
      if (!placeholder && !name.startsWith("/") && !url && name !== "@/" && !NOT_OURS.has(name)) out.push({ name, at });
    }
  }
  return out;
}

let basenames: Set<string> | undefined;
/** Every file name of the project. */
function fileNames(dir = "", out = new Set<string>()): Set<string> {
  for (const e of readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name === ".git") continue;
    if (e.isDirectory()) fileNames(path.posix.join(dir, e.name), out);
    else out.add(e.name);
  }
  return out;
}

/** Whether a path named in `from` exists: `./`, `../` from the file's folder; others from that folder, one of its
 *  parents or the root; a bare name (`store.ts`) anywhere. */
function exists(name: string, from: string): boolean {
  const clean = name.replace(/^@\//, "");
  const dir = path.posix.dirname(from);
  if (clean.startsWith("./") || clean.startsWith("../")) return existsSync(path.join(PROJECT_ROOT, dir, clean));
  if (!clean.slice(0, -1).includes("/")) {
    basenames ??= fileNames();
    return clean.endsWith("/") || basenames.has(clean);
  }
  for (let d = dir; ; d = path.posix.dirname(d)) {
    if (existsSync(path.join(PROJECT_ROOT, d, clean))) return true;
    if (d === ".") return false;
  }
}

function missingPaths(file: string, text: string): string[] {
  const pieces = file.endsWith(".md") ? [{ line: 1, text }] : comments(parse(file, text));
  return pieces.flatMap((piece) =>
    namedPaths(piece.text)
      .filter(({ name }) => !exists(name, file))
      .map(({ name, at }) => `${file}:${piece.line + (piece.text.slice(0, at).match(/\n/g)?.length ?? 0)}: ${name}`),
  );
}

/** Declarations with more than one doc comment: the editor shows the last; the others describe something else. */
function stackedDocs(file: string, text: string): string[] {
  const source = parse(file, text);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    const docs = (node as { jsDoc?: ts.JSDoc[] }).jsDoc;
    if (docs && docs.length > 1) out.push(`${file}:${source.getLineAndCharacterOfPosition(docs[0].getStart(source)).line + 1}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const files = checkedFiles().map((file) => ({ file, text: readFileSync(path.join(PROJECT_ROOT, file), "utf8") }));

test("every repo path a doc or a code comment names exists", () => {
  assert.ok(files.length > 400, `only ${files.length} files checked`);
  assert.deepEqual(
    files.flatMap((f) => missingPaths(f.file, f.text)),
    [],
    "paths that do not exist (file:line: path); fix the path, or name what the product carries",
  );
});

test("no doc comment is stacked on another above one declaration", () => {
  const code = files.filter((f) => CODE.test(f.file));
  assert.deepEqual(
    code.flatMap((f) => stackedDocs(f.file, f.text)),
    [],
    "the first of two doc comments in a row",
  );
});

test("the path finder finds files and folders, and leaves placeholders, URLs and absolute paths alone", () => {
  const names = (t: string) => namedPaths(t).map((p) => p.name);
  assert.deepEqual(names("see runner/core/timing.ts (Backoff) and workloads/exercise/."), ["runner/core/timing.ts", "workloads/exercise/"]);
  assert.deepEqual(names("workloads/<kind>/runner.ts, *.test.ts, https://x.org/a/b.md, /tmp/out.json, `@/lib`"), []);
  assert.deepEqual(names("[results/queue/IMPERFECTIONS.md](https://github.com/o/r/blob/c/results/queue/IMPERFECTIONS.md)"), []);
  assert.equal(exists("runner/operation.ts", "runner/core/pacing.ts"), false);
  assert.equal(exists("./operation.ts", "runner/core/pacing.ts"), true);
  assert.equal(exists("parts/coordinator.ts", "runner/engine.ts"), true);
  assert.equal(stackedDocs("a.ts", "/** One. */\n/** Two. */\nexport const x = 1;\n").length, 1);
});
