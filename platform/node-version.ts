// The product's Node floor, decided once: Node 22.18. Node 20 is past its end of life, and the queue libraries the
// product runs as workloads declare their own floors: graphile-worker 0.18 needs Node >= 22.18, pg-boss 12 >= 22.12.
// `npm install` brings Node 24 from the npm registry's `node` package (a dependency in package.json); npm puts
// node_modules/.bin first on the PATH of every `npm start`, `npm test`, `npm run …`, so those commands run on it
// whatever Node the machine has. A script started with a Node below the floor (`node scripts/start.ts` on a machine
// with Node 20) stops with a message saying so, rather than failing later in a way that names something else.
import path from "node:path";
import { PROJECT_ROOT } from "../lib/paths";

export const NODE_FLOOR_MAJOR = 22;
export const NODE_FLOOR_MINOR = 18;
/** The floor as users read it and package.json's `engines` states it (">=22.18"). */
export const NODE_FLOOR = `${NODE_FLOOR_MAJOR}.${NODE_FLOOR_MINOR}`;

/** The major version of a `process.version` string ("v24.21.0" → 24). */
export const nodeMajor = (version: string): number => Number(/^v?(\d+)\./.exec(version)?.[1] ?? Number.NaN);
/** The minor version of a `process.version` string ("v22.18.0" → 18). */
const nodeMinor = (version: string): number => Number(/^v?\d+\.(\d+)/.exec(version)?.[1] ?? Number.NaN);

/** Whether a `process.version` string is at or above the floor (an unreadable one is not). */
export function meetsNodeFloor(version: string): boolean {
  const major = nodeMajor(version);
  return major > NODE_FLOOR_MAJOR || (major === NODE_FLOOR_MAJOR && nodeMinor(version) >= NODE_FLOOR_MINOR);
}

/** Whether this process runs on the project's own Node (node_modules/node), as `npm …` commands do. */
export function isProjectNode(execPath: string = process.execPath): boolean {
  const own = path.join(PROJECT_ROOT, "node_modules", "node");
  return path.resolve(execPath).startsWith(own + path.sep);
}

/** Null when `version` is at or above the floor, else the message that names the problem and what to do. */
export function nodeFloorProblem(version: string, execPath: string): string | null {
  if (meetsNodeFloor(version)) return null;
  return [
    `pg-broker-bench needs Node ${NODE_FLOOR} or newer; this is Node ${version} (${execPath}).`,
    "Run it through npm (`npm start`, `npm test`, `npm run bench -- …`, `npm run runner`): `npm install` put Node 24",
    "in node_modules (the npm registry's `node` package) and npm runs the project's scripts on it.",
    `Or install Node ${NODE_FLOOR} or newer (22 or 24) on this machine.`,
  ].join("\n");
}

/** Exits with the floor's message when this process's Node is too old. Entry points call it first. */
export function requireNodeFloor(): void {
  const problem = nodeFloorProblem(process.version, process.execPath);
  if (!problem) return;
  console.error(problem);
  process.exit(1);
}

/** One line for start-up output: which Node runs the product, and where it came from. */
export function describeNode(version: string = process.version, execPath: string = process.execPath): string {
  return isProjectNode(execPath) ? `Node ${version} (the project's own, from the npm package \`node\` in node_modules)` : `Node ${version} (${execPath})`;
}
