// The control-store side of parts carried by other runners (issue #23): the run_part rows a coordinator opens and
// a runner claims, and the run_part_message rows that carry the SAME ToPart / FromPart messages as the IPC channel
// of a forked part (./protocol.ts), in order, woken by NOTIFY on one channel whose payload names the run, the part
// and the direction. Both ends also read their messages every second: a missed notification only delays one.
import pg from "pg";
import type { PrismaClient } from "../../lib/db";

export const PARTS_CHANNEL = "pgbb_parts";
/** A carrying runner heart-beats its part's row this often; a coordinator gives up on one silent for PART_STALE_MS. */
export const PART_HEARTBEAT_MS = 1000;
export const PART_STALE_MS = 5000;

/** What the carrying runner adds to a part's messages: its process ended (after its `done`, or instead of it). */
export interface ExitedMessage {
  type: "exited";
  code: number | null;
  signal: string | null;
  tail: string[];
}

const queues = new WeakMap<pg.Client, Promise<unknown>>();
/** A query on `c` after every query already asked of it: one connection carries the relay, its watch and its beats. */
export function sql<R extends pg.QueryResultRow = pg.QueryResultRow>(c: pg.Client, text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
  const next = (queues.get(c) ?? Promise.resolve()).then(() => c.query<R>(text, values));
  queues.set(
    c,
    next.catch(() => undefined),
  );
  return next;
}

export const wakeFor = (runId: string, part: number, toPart: boolean) => `${runId} ${part} ${toPart ? "to" : "from"}`;

/** A control-store connection for one run's parts: LISTENs on the channel and hands each payload to `onWake`. */
export async function connectStore(url: string, onWake: (payload: string) => void, onError: (err: Error) => void): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000, application_name: "pgbb parts" });
  c.on("error", onError);
  c.on("notification", (n) => n.channel === PARTS_CHANNEL && onWake(n.payload ?? ""));
  await c.connect();
  await sql(c, `LISTEN ${PARTS_CHANNEL}`);
  return c;
}

/**
 * One direction of one part's messages: `post` appends (in the order called), `pump` hands every message not yet
 * delivered to `deliver`, in order, once each (calls are chained, never concurrent).
 */
export class PartMailbox {
  private lastId = 0;
  private reading: Promise<void> = Promise.resolve();
  private posting: Promise<void> = Promise.resolve();

  constructor(
    private readonly c: pg.Client,
    readonly runId: string,
    readonly part: number,
  ) {}

  post(toPart: boolean, body: unknown): Promise<void> {
    const text = `WITH m AS (INSERT INTO run_part_message (run_id, part, to_part, body) VALUES ($1, $2, $3, $4) RETURNING 1)
      SELECT pg_notify($5, $6) FROM m`;
    const args = [this.runId, this.part, toPart, JSON.stringify(body), PARTS_CHANNEL, wakeFor(this.runId, this.part, toPart)];
    const next = this.posting.then(() => sql(this.c, text, args)).then(() => undefined);
    this.posting = next.catch(() => undefined);
    return next;
  }

  pump(toPart: boolean, deliver: (body: unknown) => void): Promise<void> {
    this.reading = this.reading.then(async () => {
      const r = await sql<{ id: string; body: unknown }>(
        this.c,
        "SELECT id, body FROM run_part_message WHERE run_id = $1 AND part = $2 AND to_part = $3 AND id > $4 ORDER BY id",
        [this.runId, this.part, toPart, this.lastId],
      );
      for (const row of r.rows) {
        this.lastId = Number(row.id);
        deliver(row.body);
      }
    });
    const done = this.reading;
    this.reading = done.catch(() => undefined);
    return done;
  }

  /** Resolves once every message posted so far is stored. */
  flushed(): Promise<void> {
    return this.posting;
  }
}

/** Opens a row per part in `indexes`, for other runners to claim. */
export async function openParts(c: pg.Client, runId: string, indexes: number[], of: number): Promise<void> {
  await sql(c, "INSERT INTO run_part (run_id, part, parts, coordinator_backend_pid) SELECT $1, unnest($2::int[]), $3, pg_backend_pid()", [runId, indexes, of]);
}

export interface PartRow {
  part: number;
  status: "open" | "claimed" | "ready" | "running" | "done" | "failed";
  runnerId: string | null;
  host: string | null;
  pid: number | null;
  error: string | null;
  targetOffsetMs: number | null;
  uncertaintyMs: number | null;
  /** Its clock minus the target's again, once its load was done. */
  targetOffsetEndMs: number | null;
  /** Since its carrying runner's last beat (the control store's clock). */
  silentMs: number | null;
  /** Its carrying runner's control-store session has ended (that runner died or lost the store). */
  gone: boolean;
}

/** The run's part rows, with how long each carrying runner has been silent. */
export async function partRows(c: pg.Client, runId: string): Promise<PartRow[]> {
  const r = await sql<PartRow>(
    c,
    `SELECT part, status, runner_id AS "runnerId", host, pid, error, target_offset_ms AS "targetOffsetMs",
       target_uncertainty_ms AS "uncertaintyMs", target_offset_end_ms AS "targetOffsetEndMs",
       (extract(epoch FROM clock_timestamp() - heartbeat_at) * 1000)::float8 AS "silentMs",
       backend_pid IS NOT NULL AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = backend_pid) AS gone
     FROM run_part WHERE run_id = $1 ORDER BY part`,
    [runId],
  );
  return r.rows;
}

/** Ends the run's parts still open or running (`reason` kept as their error), and drops its messages. */
export async function closeParts(c: pg.Client, runId: string, reason: string): Promise<void> {
  await sql(c, "UPDATE run_part SET status = 'failed', error = coalesce(error, $2) WHERE run_id = $1 AND status NOT IN ('done', 'failed')", [runId, reason]);
  await sql(c, "DELETE FROM run_part_message WHERE run_id = $1", [runId]);
}

export interface ClaimedPart {
  runId: string;
  part: number;
  parts: number;
}

/** Claims the oldest open part (only part `only` when given) for runner `runnerId` on `host`, or null. */
export async function claimPart(db: PrismaClient, runnerId: string, host: string, only?: number): Promise<ClaimedPart | null> {
  const rows = await db.$queryRaw<ClaimedPart[]>`
    UPDATE run_part SET status = 'claimed', runner_id = ${runnerId}, host = ${host}, claimed_at = now(), heartbeat_at = now()
    WHERE (run_id, part) = (
      SELECT p.run_id, p.part FROM run_part p JOIN run r ON r.id = p.run_id
      WHERE p.status = 'open' AND r.status = 'running' AND (${only ?? null}::int IS NULL OR p.part = ${only ?? null}::int)
      ORDER BY p.created_at, p.part FOR UPDATE OF p SKIP LOCKED LIMIT 1)
    RETURNING run_id AS "runId", part, parts`;
  return rows[0] ?? null;
}
