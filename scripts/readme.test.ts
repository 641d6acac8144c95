// The README is for users and stays short; docs/ holds the rest. These checks keep the two honest: the README's
// size, links that resolve (files and #anchors), and the lists that must follow the code (environment variables
// from lib/env.ts, workloads from the registry).
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { EnvSchema } from "../lib/env";
import { PROJECT_ROOT } from "../lib/paths";
import { workloadDefinitions } from "../workloads/index";

const README = path.join(PROJECT_ROOT, "README.md");
const DOCS = path.join(PROJECT_ROOT, "docs");
const MAX_README_BYTES = 20 * 1024;

function read(file: string): string {
  return readFileSync(file, "utf8");
}

/** Markdown without fenced code blocks and inline code, where `[x](y)` is not a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "``");
}

/** Heading anchors as GitHub makes them (github-slugger): lower case, punctuation dropped, spaces to hyphens,
 *  a repeated heading gets -1, -2, …. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, "");
  for (const m of withoutCode.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = m[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Every relative link target (`path`, `path#anchor` or `#anchor`) of a Markdown file, images included. */
function relativeLinks(markdown: string): string[] {
  const links: string[] = [];
  for (const m of prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const href = m[1];
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue; // https:, mailto:: not ours to check
    links.push(href);
  }
  return links;
}

/** The problems of one file's links, each naming the file, the link and what is wrong. */
function brokenLinks(file: string): string[] {
  const problems: string[] = [];
  const rel = path.relative(PROJECT_ROOT, file);
  for (const href of relativeLinks(read(file))) {
    const [target, anchor] = href.split("#", 2);
    const targetFile = target === "" ? file : path.resolve(path.dirname(file), decodeURI(target));
    if (!existsSync(targetFile)) {
      problems.push(`${rel}: link "${href}" points at a missing file`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!statSync(targetFile).isFile() || !targetFile.endsWith(".md")) {
      problems.push(`${rel}: link "${href}" has an anchor but does not point at a Markdown file`);
    } else if (!headingAnchors(read(targetFile)).has(anchor)) {
      problems.push(`${rel}: link "${href}" names no heading of ${path.relative(PROJECT_ROOT, targetFile)}`);
    }
  }
  return problems;
}

/** The text of a `## title` section of the README, up to the next `## ` heading. */
function section(markdown: string, title: string): string {
  const start = markdown.search(new RegExp(`^## ${title}\\b.*$`, "m"));
  assert.ok(start >= 0, `README.md has no "## ${title}" section`);
  const rest = markdown.slice(start + 3);
  const end = rest.search(/^## /m);
  return end < 0 ? rest : rest.slice(0, end);
}

function docsFiles(): string[] {
  if (!existsSync(DOCS)) return [];
  return readdirSync(DOCS)
    .filter((f) => f.endsWith(".md"))
    .map((f) => path.join(DOCS, f));
}

test("README.md stays a user's README: under 20 KiB, the rest in docs/", () => {
  const bytes = statSync(README).size;
  assert.ok(bytes < MAX_README_BYTES, `README.md is ${bytes} bytes; keep it under ${MAX_README_BYTES} (move detail to docs/)`);
  const docs = docsFiles();
  assert.ok(docs.length > 0, "docs/ holds no Markdown file");
  const linked = new Set(relativeLinks(read(README)).map((h) => path.resolve(PROJECT_ROOT, h.split("#")[0])));
  const unlinked = docs.filter((f) => !linked.has(f)).map((f) => path.relative(PROJECT_ROOT, f));
  assert.deepEqual(unlinked, [], "every docs/ file is linked from README.md");
});

test("every relative link of README.md and docs/*.md points at a file, and its #anchor at a heading there", () => {
  const problems = [README, ...docsFiles()].flatMap(brokenLinks);
  assert.deepEqual(problems, []);
});

test("the README's configuration table lists every environment variable lib/env.ts reads", () => {
  const table = section(read(README), "Configuration");
  const listed = new Set([...table.matchAll(/^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|/gm)].map((m) => m[1]));
  const missing = Object.keys(EnvSchema.shape).filter((name) => !listed.has(name));
  assert.deepEqual(missing, [], "variables of lib/env.ts missing from README.md's Configuration table");
});

test("the README's workload list names every registered workload", () => {
  const list = section(read(README), "Workloads");
  const listed = new Set([...list.matchAll(/^- `([a-z][a-z0-9-]*)`:/gm)].map((m) => m[1]));
  const missing = workloadDefinitions()
    .map((d) => d.kind)
    .filter((kind) => !listed.has(kind));
  assert.deepEqual(missing, [], "workloads missing from README.md's Workloads list (one line each, `- `kind`: …`)");
});

test("heading anchors are made as GitHub makes them", () => {
  const anchors = headingAnchors("# Headless runs: `npm run bench`\n## Import the reference tool's output\n## A\n## A\n");
  assert.deepEqual([...anchors], ["headless-runs-npm-run-bench", "import-the-reference-tools-output", "a", "a-1"]);
});
