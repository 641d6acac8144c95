// What a primary's standbys should look like in pg_stat_replication, and the wait until they do: every standby
// streaming, each in the sync state `synchronous_standby_names` gives it (Postgres's rules, syncrep.c: FIRST n, the
// n listed first among those connected are `sync` and the other listed ones `potential`; ANY n, every listed one
// `quorum`; a plain list is FIRST 1; `*` lists everyone; one not listed is `async`).
import pg from "pg";
import { StartupError } from "./embedded";
import { parseSyncNames } from "../lib/targets/sync-names";

export { defaultSyncNames, parseSyncNames, type SyncState } from "../lib/targets/sync-names";

/**
 * Null when the sync states seen match what `value` gives the standbys `seen` (name → state); else what differs.
 * Standbys of equal priority (matched by one `*`) are checked by count: which of them Postgres picks is its own.
 */
export function syncStatesProblem(value: string, seen: Record<string, string>): string | null {
  const cfg = parseSyncNames(value);
  const priority = (name: string) => (cfg ? cfg.names.findIndex((n) => n === "*" || n.toLowerCase() === name.toLowerCase()) + 1 : 0);
  const names = Object.keys(seen);
  const unlisted = names.filter((n) => priority(n) === 0 && seen[n] !== "async");
  if (unlisted.length) return `${unlisted.join(", ")} should be async (not listed), not ${unlisted.map((n) => seen[n]).join(", ")}`;
  const listed = names.filter((n) => priority(n) > 0);
  if (cfg?.method === "any") {
    const off = listed.filter((n) => seen[n] !== "quorum");
    return off.length ? `${off.join(", ")} should be quorum (ANY), not ${off.map((n) => seen[n]).join(", ")}` : null;
  }
  let left = cfg?.num ?? 0;
  for (const p of [...new Set(listed.map(priority))].sort((a, b) => a - b)) {
    const group = listed.filter((n) => priority(n) === p);
    const sync = Math.min(left, group.length);
    left -= sync;
    const counted = group.filter((n) => seen[n] === "sync").length;
    const potential = group.filter((n) => seen[n] === "potential").length;
    if (counted !== sync || potential !== group.length - sync)
      return `${group.join(", ")}: expected ${sync} sync and ${group.length - sync} potential, saw ${group.map((n) => `${n} ${seen[n]}`).join(", ")}`;
  }
  return null;
}

export interface ReplicationRow {
  name: string;
  state: string;
  syncState: string;
}

/** The primary's pg_stat_replication, by application_name. */
export async function replicationRows(client: pg.Client): Promise<ReplicationRow[]> {
  const r = await client.query<ReplicationRow>(
    'SELECT application_name AS name, state, sync_state AS "syncState" FROM pg_stat_replication ORDER BY application_name',
  );
  return r.rows;
}

/**
 * Resolves once every standby of `names` streams from the primary at `url` with the sync state `syncNames` gives
 * it; throws after `waitMs` saying what was seen, and `more()` (the standbys' log tails).
 */
export async function waitForReplication(
  url: string,
  names: string[],
  syncNames: string,
  opts: { waitMs?: number; more?: () => string } = {},
): Promise<ReplicationRow[]> {
  const waitMs = opts.waitMs ?? 60_000;
  const until = Date.now() + waitMs;
  let seen: ReplicationRow[] = [];
  let problem = "";
  while (true) {
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    c.on("error", () => undefined);
    try {
      await c.connect();
      seen = await replicationRows(c);
      const byName = new Map(seen.map((r) => [r.name, r]));
      const missing = names.filter((n) => byName.get(n)?.state !== "streaming");
      const states = Object.fromEntries(names.map((n) => [n, byName.get(n)?.syncState ?? "absent"]));
      problem = missing.length ? `${missing.join(", ")} not streaming` : (syncStatesProblem(syncNames, states) ?? "");
      if (!problem) return seen;
    } catch (err) {
      problem = `the primary did not answer: ${(err as Error).message}`;
    } finally {
      await c.end().catch(() => undefined);
    }
    if (Date.now() > until) {
      const rows = seen.map((r) => `${r.name} ${r.state} (${r.syncState})`).join(", ") || "none";
      throw new StartupError(
        `The standbys did not all stream within ${waitMs / 1000} s (synchronous_standby_names = '${syncNames}'): ${problem}. pg_stat_replication: ${rows}.${opts.more?.() ?? ""}`,
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
