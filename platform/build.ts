// Decides whether the web app needs (re)building before `npm start` serves it.
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../lib/paths";
import { readEnv } from "../lib/env";
import { pidAlive } from "./pid";

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

/** The lock file beside the build folder: one `next build` at a time per build folder. */
export const buildLockPath = (root: string = PROJECT_ROOT): string => path.join(root, `${readEnv().NEXT_DIST_DIR}.build-lock`);

/**
 * Builds the web app when it is stale, one build at a time per build folder: two starts from one checkout (two data
 * folders, a test beside a running app) would otherwise run `next build` together, and Next refuses the second
 * ("Another next build process is already running"). A start that finds another one building waits for it (told
 * through `onWait`), then builds only if the sources are still newer than what that build made. A lock left by a
 * process that died is taken over. Returns whether this call built.
 */
export async function buildIfStale(
  build: () => Promise<void>,
  opts: { root?: string; onWait?: (holderPid: number) => void; pollMs?: number } = {},
): Promise<boolean> {
  const root = opts.root ?? PROJECT_ROOT;
  const lock = buildLockPath(root);
  let told = false;
  // The lock first, staleness after: a build in progress writes BUILD_ID long before it has written everything
  // else, so a build folder another start is building must not be judged (or served) until that build ends.
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: "wx" });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    let holder = 0;
    try {
      holder = Number(readFileSync(lock, "utf8").trim() || 0);
    } catch {
      continue; // released between our try and this read
    }
    if (!pidAlive(holder)) {
      rmSync(lock, { force: true }); // its builder died: take it over on the next turn
      continue;
    }
    if (!told) opts.onWait?.(holder);
    told = true;
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 500));
  }
  try {
    if (!buildIsStale(root)) return false; // fresh, or built by the start we waited for
    await build();
    return true;
  } finally {
    rmSync(lock, { force: true });
  }
}
