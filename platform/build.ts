// Decides whether the web app needs (re)building before `npm start` serves it.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../lib/paths";
import { readEnv } from "../lib/env";

// Everything the web app bundles: workloads/ holds the definitions the form, compare and the API read.
const SOURCE_DIRS = ["app", "components", "lib", "workloads", "platform", "public"];
const SOURCE_FILES = ["next.config.ts", "proxy.ts", "package.json", "tsconfig.json"];

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const e of readdirSync(p)) if (e !== "generated") newest = Math.max(newest, newestMtime(path.join(p, e)));
  return newest;
}

/** True when .next holds no production build, or a source file is newer than it. */
export function buildIsStale(root: string = PROJECT_ROOT): boolean {
  const buildId = path.join(root, readEnv().NEXT_DIST_DIR, "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  const newest = Math.max(...SOURCE_DIRS.map((d) => newestMtime(path.join(root, d))), ...SOURCE_FILES.map((f) => newestMtime(path.join(root, f))));
  return newest > built;
}
