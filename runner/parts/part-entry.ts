// How a runner forks a part process (the coordinator's own parts and an agent's): the part's code
// (./part-main.ts and the ~80 modules it imports) bundled into one file by esbuild (the compiler tsx itself runs
// on), then loaded by plain node. Under tsx every part resolved and compiled those modules one by one: about 0.6 s
// of CPU before it could connect (1 s and more on a busy machine), paid by every part of every run. The bundle
// loads in about 0.2 s. It is built once per runner process, from the sources as they are at its first
// multi-process run (the coordinator's own code is also as it was when it started), into
// node_modules/.cache/pgbb-parts/ under the hash of its content (so runners of one checkout share it, and two
// versions never overwrite each other). Where it cannot be built or written, parts run part-main.ts under tsx,
// as before, and the runner says why once.
import { type ChildProcess, fork } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PROJECT_ROOT } from "../../lib/paths";

/** The part's own source: what runs under tsx when no bundle can be had. */
export const PART_MAIN = path.join(PROJECT_ROOT, "runner", "parts", "part-main.ts");
const CACHE_DIR = path.join(PROJECT_ROOT, "node_modules", ".cache", "pgbb-parts");

export interface PartEntry {
  /** The file node runs. */
  file: string;
  /** Its node flags: source maps for the bundle (stack traces name the sources), tsx's loader for the sources. */
  execArgv: string[];
  /** Why the sources run under tsx (the bundle could not be built or written), or absent. */
  fallback?: string;
}

let entry: Promise<PartEntry> | undefined;

/** The part's entry for this process's runs: bundled on the first call, the same file afterwards. */
export function partEntry(): Promise<PartEntry> {
  entry ??= bundle().catch((err: Error): PartEntry => ({ file: PART_MAIN, execArgv: ["--import", "tsx"], fallback: err.message.split("\n")[0] }));
  return entry;
}

async function bundle(): Promise<PartEntry> {
  const { build } = await import("esbuild");
  const out = await build({
    entryPoints: [PART_MAIN],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node22",
    // Packages stay in node_modules, loaded by node's require exactly as under tsx (which compiles to CommonJS too).
    packages: "external",
    write: false,
    logLevel: "silent",
    sourcemap: "inline",
    // lib/paths.ts finds the project's root from its own URL: in the bundle it must still be its own file's.
    define: { "import.meta.url": JSON.stringify(pathToFileURL(path.join(PROJECT_ROOT, "lib", "paths.ts")).href) },
  });
  if (out.warnings.length) throw new Error(`bundling ${path.relative(PROJECT_ROOT, PART_MAIN)} warned: ${out.warnings[0].text}`);
  const code = out.outputFiles[0].contents;
  const file = path.join(CACHE_DIR, `part-main-${createHash("sha256").update(code).digest("hex").slice(0, 16)}.cjs`);
  if (!existsSync(file)) {
    mkdirSync(CACHE_DIR, { recursive: true });
    // Written whole, then renamed into place: a runner beside this one never loads half a file.
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, code);
    renameSync(tmp, file);
  }
  return { file, execArgv: ["--enable-source-maps"] };
}

/** Forks a part process on `e` (partEntry()'s), with the options every part gets. */
export function forkPart(e: PartEntry, opts: { file?: string } = {}): ChildProcess {
  const file = opts.file ?? e.file;
  return fork(file, [], {
    // A test's own entry (a fixture) is TypeScript: it runs under tsx whatever the bundle is.
    execArgv: file === e.file ? e.execArgv : ["--import", "tsx"],
    env: process.env,
    cwd: PROJECT_ROOT,
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
}
