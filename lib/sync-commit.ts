// The run option `synchronousCommit` (workloads/fields.ts synchronousCommitField): the synchronous_commit every
// session of a run has on the target, one of Postgres's five levels, from the weakest wait to the strongest.
// Absent, the sessions keep the server's own (its postgresql.conf, the database's or the role's setting). The
// engine gives it to every connection the run opens (runner/session-options.ts); the synchronous commit ladder
// (lib/ladder/) runs one config at each level. Browser-safe, imports nothing.

/** The levels in the order of what a commit waits for, least first (the ladder's default order). */
export const SYNC_COMMIT_LEVELS = ["off", "local", "remote_write", "on", "remote_apply"] as const;
export type SyncCommitLevel = (typeof SYNC_COMMIT_LEVELS)[number];

/** What a commit waits for at each level, as Postgres's documentation states it (with synchronous standbys). */
export const SYNC_COMMIT_WAITS: Record<SyncCommitLevel, string> = {
  off: "nothing: the commit returns before its WAL is flushed (a crash may lose the last commits, never corrupt)",
  local: "the local WAL flush only, even with synchronous standbys",
  remote_write: "the local WAL flush and the synchronous standbys' write of it (in their OS, not yet flushed)",
  on: "the local WAL flush and the synchronous standbys' flush of it (the server's default)",
  remote_apply: "the local WAL flush and the synchronous standbys' replay of it (visible to their queries)",
};

export const isSyncCommitLevel = (v: unknown): v is SyncCommitLevel => typeof v === "string" && (SYNC_COMMIT_LEVELS as readonly string[]).includes(v);

/** The levels as a list for a message: "off, local, remote_write, on or remote_apply". */
export const SYNC_COMMIT_CHOICES = `${SYNC_COMMIT_LEVELS.slice(0, -1).join(", ")} or ${SYNC_COMMIT_LEVELS.at(-1)}`;
