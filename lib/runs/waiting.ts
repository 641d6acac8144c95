// The words of a run waiting for other runners to take its parts (runner/parts/remote-parts.ts opens them): shown on
// the run page while the run sets up.

/** "waiting for part 1 of 2", "waiting for parts 2, 3 of 4", or null when no part waits. */
export function waitingForParts(open: readonly { part: number; parts: number }[]): string | null {
  if (!open.length) return null;
  const list = open.map((p) => p.part).join(", ");
  return `waiting for ${open.length === 1 ? "part" : "parts"} ${list} of ${open[0].parts}: start \`npm run runner\` with the same DATABASE_URL on another machine`;
}
