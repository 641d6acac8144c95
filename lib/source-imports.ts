// A module's imports read from its source, for the tests that hold the code's layers apart
// (workloads/boundary.test.ts, runner/core/layer.test.ts). Every spelling counts: static, type-only, export-from,
// side-effect, dynamic import() and require(); comments do not. Parsing only, no compiler program, so a walk over
// the whole tree takes milliseconds.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "./paths";

/** Every source file under a project folder, as project paths ("runner/core/timing.ts"). */
export function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sourceFiles(rel);
    return /\.(c|m)?[jt]sx?$/.test(e.name) ? [rel] : [];
  });
}

/** Tests and what only tests run: a workload's testing.ts (its hooks) and the conformance suite (workloads/exercise/). */
export const isTestFile = (f: string) => /\.test\.[jt]sx?$/.test(f) || /(^|\/)testing\.ts$/.test(f) || f.startsWith("workloads/exercise/");

/** Comments removed (strings kept as they are), so a comment that names a path is not taken for an import. */
export function withoutComments(src: string): string {
  let out = "";
  let quote = "";
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (quote) {
      out += c;
      if (c === "\\") out += src[++i] ?? "";
      else if (c === quote) quote = "";
    } else if (c === "/" && src[i + 1] === "/") {
      while (i < src.length && src[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && src[i + 1] === "*") {
      const end = src.indexOf("*/", i + 2);
      i = end < 0 ? src.length : end + 1;
    } else {
      if (c === '"' || c === "'" || c === "`") quote = c;
      out += c;
    }
  }
  return out;
}

/** Every module specifier in a file; a dynamic import or require of something other than a string literal is
 *  returned as `<computed: …>` (it cannot be checked, so it is refused). */
export function specifiersOf(src: string): string[] {
  const code = withoutComments(src);
  const out: string[] = [];
  for (const m of code.matchAll(/\b(?:import|export)\s+(?:type\s+)?[^;'"`]*?\bfrom\s*(['"])([^'"]+)\1/g)) out.push(m[2]);
  for (const m of code.matchAll(/\bimport\s*(['"])([^'"]+)\1/g)) out.push(m[2]);
  for (const m of code.matchAll(/\b(?:import|require)\s*\(\s*([^)]*?)\s*[,)]/g)) {
    const lit = /^(['"`])([^'"`$]+)\1$/.exec(m[1]);
    out.push(lit ? lit[2] : `<computed: ${m[1]}>`);
  }
  return out;
}

/** Every relative or "@/" path written in a quoted string anywhere in the file (a path kept in a variable and
 *  imported later, or one the comment stripper might miss): checked as if imported. */
export const pathLiterals = (src: string) => [...src.matchAll(/(["'`])((?:\.\.?\/)+[^"'`\s]+|@\/[^"'`\s]+)\1/g)].map((m) => m[2]);

/** A specifier as a project path, or null for a package. "@/" is tsconfig.json's one alias (the project root). */
function projectPath(fromFile: string, spec: string): string | null {
  if (spec.startsWith("@/")) return spec.slice(2);
  if (spec.startsWith(".")) return path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), spec));
  return null;
}

/** A specifier as a project path without extension or /index ("runner/core"), or null for a package. */
export function moduleOf(fromFile: string, spec: string): string | null {
  return (
    projectPath(fromFile, spec)
      ?.replace(/\.(c|m)?[jt]sx?$/, "")
      .replace(/\/index$/, "") ?? null
  );
}

/** Where the walk reads the tree: the project's files, or (in the walk's own test) a tree in memory. */
export interface SourceTree {
  read(file: string): string;
  isFile(file: string): boolean;
}

export const projectTree: SourceTree = {
  read: (f) => readFileSync(path.join(PROJECT_ROOT, f), "utf8"),
  isFile: (f) => existsSync(path.join(PROJECT_ROOT, f)) && statSync(path.join(PROJECT_ROOT, f)).isFile(),
};

/** The project file a specifier names ("runner/core/index.ts"), or null for a package or a file that is not code. */
export function resolveFile(fromFile: string, spec: string, tree: SourceTree = projectTree): string | null {
  const base = projectPath(fromFile, spec);
  if (base === null) return null;
  for (const ext of ["", ".ts", ".tsx", "/index.ts", "/index.tsx"]) {
    const f = base + ext;
    if (/\.(c|m)?[jt]sx?$/.test(f) && tree.isFile(f)) return f;
  }
  return null; // JSON and CSS: data, not code
}

/**
 * Follows every import from the start files, breadth first, and returns the chain to each file `forbidden`
 * names, as "runner/core/timing.ts → lib/workloads/config.ts" (each file reached once, by a shortest chain; a
 * forbidden file is not followed further). A computed import() or require() cannot be followed, so it is
 * returned as a problem too.
 */
export function forbiddenChains(starts: string[], forbidden: (file: string) => boolean, tree: SourceTree = projectTree): string[] {
  const problems: string[] = [];
  const chainTo = new Map<string, string[]>(starts.map((s) => [s, [s]]));
  const queue = [...starts];
  for (let f = queue.shift(); f !== undefined; f = queue.shift()) {
    const chain = chainTo.get(f) as string[];
    if (forbidden(f)) {
      problems.push(chain.join(" → "));
      continue;
    }
    for (const spec of specifiersOf(tree.read(f))) {
      if (spec.startsWith("<computed")) problems.push(`${chain.join(" → ")}: ${spec} cannot be followed`);
      const next = resolveFile(f, spec, tree);
      if (next && !chainTo.has(next)) {
        chainTo.set(next, [...chain, next]);
        queue.push(next);
      }
    }
  }
  return problems;
}
