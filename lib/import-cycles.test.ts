// No import circle anywhere in the project's own code (the app, the runner, the workloads, the scripts, the
// platform, the fixtures, deploy/, e2e/ and the root's config files): two files that import each other, even only
// for a type, hold one idea split wrong (usually a type in the wrong file). Type imports count too; tests do not.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import ts from "typescript";
import { PROJECT_ROOT } from "./paths";

const CODE = /\.(ts|tsx)$/;
const TEST = /\.test\.(ts|tsx)$/;
/** Not the project's own code: installed packages, the generated Prisma client, and dot folders (.git, .next, .data…). */
const SKIP = new Set(["node_modules", "generated"]);

function codeFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true })) {
    if (SKIP.has(e.name) || e.name.startsWith(".")) continue;
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) codeFiles(rel, out);
    else if (CODE.test(e.name) && !TEST.test(e.name) && !e.name.endsWith(".d.ts")) out.push(rel);
  }
  return out;
}

/** The file an import names, when it is one of `files` ("@/…" is the project root). */
function resolved(from: string, spec: string, files: Set<string>): string | undefined {
  const base = spec.startsWith("@/") ? spec.slice(2) : spec.startsWith(".") ? path.posix.join(path.posix.dirname(from), spec) : undefined;
  if (base === undefined) return undefined;
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find((c) => files.has(c));
}

/** The circles of the import graph: its strongly connected components of more than one file (Tarjan's). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) visit(w);
      if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, low.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1) out.push(scc.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

test("no import circles in the project's code (type imports included)", () => {
  const list = codeFiles("");
  const files = new Set(list);
  const graph = new Map(
    list.map((f) => {
      const info = ts.preProcessFile(readFileSync(path.join(PROJECT_ROOT, f), "utf8"), true, true);
      const deps = info.importedFiles.map((i) => resolved(f, i.fileName, files)).filter((d): d is string => d !== undefined);
      return [f, [...new Set(deps)]];
    }),
  );
  assert.deepEqual(circles(graph), [], "files that import each other, directly or through others");
});

test("the circle finder finds a circle through a third file, and none in a chain", () => {
  const graph = new Map([
    ["a.ts", ["b.ts"]],
    ["b.ts", ["c.ts"]],
    ["c.ts", ["a.ts"]],
    ["d.ts", ["a.ts"]],
  ]);
  assert.deepEqual(circles(graph), [["a.ts", "b.ts", "c.ts"]]);
  assert.deepEqual(
    circles(
      new Map([
        ["d.ts", ["a.ts"]],
        ["a.ts", []],
      ]),
    ),
    [],
  );
});
