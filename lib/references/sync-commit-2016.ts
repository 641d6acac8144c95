// The only published synchronous_commit ladder found: Kaarel Moppel's pgbench runs on PostgreSQL 9.6 with a
// streaming replica (Cybertec, September 2016), carried as data so the synchronous commit ladder's page and CLI show
// it beside ours (lib/ladder/), always labelled with its version and what it leaves out. Browser-safe.
import type { SyncCommitLevel } from "../sync-commit";

export interface LadderReferenceRow {
  /** synchronous_commit as the run set it. */
  level: SyncCommitLevel;
  /** The replica beside the primary: asynchronous (commits wait for none) or synchronous; null when not stated. */
  replica: "asynchronous" | "synchronous" | null;
  /** The level of our ladder whose wait this row's commit had: `on` with only an asynchronous replica waits for the
   *  local flush alone, as `local` does. */
  waitsAs: SyncCommitLevel;
  tps: number;
}

export interface LadderReference {
  id: string;
  /** How every surface names it: tool, version, who and when. */
  label: string;
  author: string;
  published: string;
  url: string;
  postgresVersion: string;
  rows: LadderReferenceRow[];
  /** What keeps it from comparing with our figures, every one shown with it. */
  caveats: string[];
}

export const SYNC_COMMIT_2016: LadderReference = {
  id: "cybertec-2016-synchronous-commit",
  label: "pgbench on PostgreSQL 9.6 (Cybertec, 2016)",
  author: "Kaarel Moppel, Cybertec",
  published: "September 2016",
  url: "https://www.cybertec-postgresql.com/en/the-synchronous_commit-parameter/",
  postgresVersion: "9.6",
  rows: [
    { level: "off", replica: null, waitsAs: "off", tps: 6211 },
    { level: "on", replica: "asynchronous", waitsAs: "local", tps: 4256 },
    { level: "remote_write", replica: "synchronous", waitsAs: "remote_write", tps: 3720 },
    { level: "on", replica: "synchronous", waitsAs: "on", tps: 3329 },
    { level: "remote_apply", replica: "synchronous", waitsAs: "remote_apply", tps: 3055 },
  ],
  caveats: [
    "transactions per second only: no latencies were published",
    "pgbench's own transaction, another workload than this one: compare how the figures fall from level to level, not the figures",
    "PostgreSQL 9.6 (2016): an old version, before many changes to WAL and replication",
    "hardware not stated",
    "no run published at local: its row is `on` with an asynchronous replica, which waited for the same local flush",
  ],
};

/** The published row whose commit waited as `level` does here, or undefined. */
export const referenceRowFor = (level: SyncCommitLevel, ref: LadderReference = SYNC_COMMIT_2016): LadderReferenceRow | undefined =>
  ref.rows.find((r) => r.waitsAs === level);
