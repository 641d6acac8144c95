// synchronous_standby_names as the embedded replicated target (platform/replicated.ts) reads and checks it: its
// standbys' names (pg2 … pgN+1), the published scenario's default (FIRST 1 (pg2, pg3)), the value parsed as Postgres
// parses it (syncrep.c), and whether a value given in the environment can ever be met by those standbys (lib/env.ts).
// Browser-safe: no server code.

export type SyncState = "sync" | "potential" | "quorum" | "async";

export interface SyncConfig {
  method: "first" | "any";
  num: number;
  names: string[];
}

/** The tokens of a synchronous_standby_names value: words, "quoted names", ( ) and commas. */
function tokens(value: string): string[] {
  const out: string[] = [];
  const re = /\s*(?:"((?:[^"]|"")*)"|([(),])|([^\s,()"]+))/y;
  for (let m = re.exec(value); m; m = re.exec(value)) out.push(m[1] !== undefined ? m[1].replaceAll('""', '"') : (m[2] ?? m[3]));
  return out;
}

/** The method, number and names of a value Postgres accepted; null for the empty value (no synchronous standby). */
export function parseSyncNames(value: string): SyncConfig | null {
  const t = tokens(value);
  if (t.length === 0) return null;
  let method: SyncConfig["method"] = "first";
  let num = 1;
  let list = t;
  const counted = (at: number) => /^\d+$/.test(t[at] ?? "") && t[at + 1] === "(" && t.at(-1) === ")";
  if (/^(first|any)$/i.test(t[0]) && counted(1)) {
    method = t[0].toLowerCase() as SyncConfig["method"];
    num = Number(t[1]);
    list = t.slice(3, -1);
  } else if (counted(0)) {
    num = Number(t[0]);
    list = t.slice(2, -1);
  }
  return { method, num, names: list.filter((x) => x !== ",") };
}

/** The default of the published three-node scenario, for `n` standbys: FIRST 1 (pg2, pg3, …). */
export function defaultSyncNames(standbys: string[]): string {
  return `FIRST 1 (${standbys.join(", ")})`;
}

/** The standbys of a cluster of `replicas`: pg2 … pgN+1 (the primary is pg1). */
export function standbyNames(replicas: number): string[] {
  return Array.from({ length: replicas }, (_, i) => `pg${i + 2}`);
}

/**
 * Why `value` could never be met by the standbys of a cluster of `replicas` (a name that is none of theirs, more
 * synchronous standbys asked than listed), or null. Postgres accepts such a value, and then every commit waits for
 * a standby that never comes: refused before anything starts.
 */
export function syncNamesProblem(value: string, replicas: number, setBy = "EMBEDDED_REPLICAS"): string | null {
  const cfg = parseSyncNames(value);
  if (!cfg || cfg.names.length === 0) return "names no standby: give e.g. FIRST 1 (pg2, pg3), or leave it unset for the published default";
  const ours = standbyNames(replicas);
  const strangers = cfg.names.filter((n) => n !== "*" && !ours.includes(n.toLowerCase()));
  if (strangers.length) return `names ${strangers.join(", ")}, but the standbys are ${ours.join(", ")} (${setBy}=${replicas})`;
  const listed = cfg.names.includes("*") ? replicas : new Set(cfg.names.map((n) => n.toLowerCase())).size;
  if (cfg.num < 1 || cfg.num > listed) return `asks for ${cfg.num} synchronous standby(s) among ${listed}: every commit would wait for ever`;
  return null;
}
