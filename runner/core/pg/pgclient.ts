// node-postgres clients for the target: one dedicated connection per writer and per reader (as the
// reference tool's db.Conn per goroutine), plus one admin connection for set-up, monitoring and checks.
import pg from "pg";
import { connectFailure, lostConnection } from "../../../lib/targets/pgurl";
import { clock } from "../timing";

/**
 * Workload clients get every column as the raw text the server sent: no Date parsing (which would drop the
 * server's microseconds), no hex-decoding of 1 KiB payloads the loops never look at (they read the 8-byte
 * time stamp straight from the hex). Numbers are converted where needed with Number().
 */
const RAW_TYPES = { getTypeParser: () => (v: string) => v };

/**
 * Settings the loops read raw text under, set for every session the runner opens so that a server, database
 * or role default cannot change them (ALTER DATABASE … SET bytea_output = 'escape' made every e2e stamp
 * garbage): payloads are read as "\x" + hex (the stamp's bytes), created_at is copied back as text and must
 * parse the same way on the way in, numbers are read as text.
 */
export const SESSION_SETTINGS: [string, string][] = [
  ["bytea_output", "hex"],
  ["DateStyle", "ISO, MDY"],
  ["TimeZone", "UTC"],
  ["IntervalStyle", "postgres"],
  ["extra_float_digits", "1"],
  ["standard_conforming_strings", "on"],
];

/**
 * The application_name a queue library's own pool gives its connections (its workers open them, not the engine): the
 * run's schema in it, so the telemetry counts them as the run's backends (runner/telemetry/collector.ts) and no other
 * run's, and pg_stat_activity says whose they are.
 */
export const libraryApplicationName = (schemaName: string): string => `pgbb ${schemaName.replace(/"/g, "")} pool`.slice(0, 63);

/** `url` with its application_name set (a library that takes a connection string rather than a name). */
export function withApplicationName(url: string, name: string): string {
  const u = new URL(url);
  u.searchParams.set("application_name", name);
  return u.toString();
}

export interface TargetClient {
  client: pg.Client;
  /** Backend pid, to cancel an in-flight query from the admin connection. */
  pid: number;
  role: string;
  /** Set when the connection was lost; the loop using it must stop. */
  lost?: Error;
  /** Statements sent and not yet answered (ReadyForQuery): the connection is waiting on the server. */
  pending: number;
  /** Clock ms of the last progress while pending (the first statement sent, or the last one answered). */
  busySince: number;
  /** The session's synchronous_commit as it reported it once connected (runner/session-options.ts checks it). */
  synchronousCommit?: string;
  /**
   * Opens a new connection in place of a lost one: same role and application_name, same session settings and
   * statement timeout, the watch told of it; `client` and `pid` then are the new connection's and `lost` is
   * cleared. Throws (as opening did) when the target does not take it. Loops must read `client` per statement
   * (LeanQuery parses its statement again on the new connection: parsedStatements are per connection).
   */
  reconnect(): Promise<void>;
}

/**
 * `onLost` is told at once when an open connection is lost (server restarted, backend terminated), so the
 * run fails then, naming the connection, instead of when a later query trips over it. Not told after
 * `closing()` returns true (the run ends its own connections).
 */
export interface LostWatch {
  onLost(tc: TargetClient, err: Error): void;
  closing(): boolean;
  /** Told of the connection as soon as it exists (before it connects): runner/pg/liveness.ts watches it. */
  track?(tc: TargetClient): void;
}

/**
 * A workload connection's server-side statement_timeout: a loop's statements take milliseconds, so one running
 * for minutes is stuck (on a lock, say) and is better ended by the server, counted as an error. Set-up,
 * verification and tear-down (the admin connection) get none: over a big table they are legitimately long, and
 * the liveness watch (runner/pg/liveness.ts) tells a long statement from a server that stopped answering.
 */
export const LOOP_STATEMENT_TIMEOUT_MS = 5 * 60_000;

export async function openClient(
  url: string,
  role: string,
  raw = true,
  timeoutMs = 10_000,
  watch?: LostWatch,
  statementTimeoutMs?: number,
): Promise<TargetClient> {
  const tc: TargetClient = {
    client: undefined as unknown as pg.Client,
    pid: 0,
    role,
    pending: 0,
    busySince: 0,
    reconnect: async () => {
      const old = tc.client;
      destroyConnection(old); // already lost; its late 'end' is not the new connection's (connectInto checks)
      await connectInto(tc, url, raw, timeoutMs, watch, statementTimeoutMs);
    },
  };
  await connectInto(tc, url, raw, timeoutMs, watch, statementTimeoutMs);
  return tc;
}

/** Opens a connection for `tc` and makes it tc's: its client, pid and settings; `lost` cleared once it answers. */
async function connectInto(tc: TargetClient, url: string, raw: boolean, timeoutMs: number, watch?: LostWatch, statementTimeoutMs?: number) {
  let client: pg.Client;
  try {
    // The driver parses the URL here: a missing sslkey file throws naming it, masked like any failure.
    client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: timeoutMs,
      // A dead host or a cut network is noticed by TCP even while no statement is in flight.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      application_name: `pgbb ${tc.role}`.slice(0, 63),
      ...(raw ? { types: RAW_TYPES } : {}),
    });
  } catch (err) {
    throw new Error(connectFailure("cannot connect to the target", url, err), { cause: err });
  }
  tc.client = client;
  tc.pending = 0;
  trackProgress(tc);
  watch?.track?.(tc);
  // Without a listener a terminated backend would emit an unhandled 'error' and kill the runner process. Only the
  // connection tc holds now is its loss: an earlier one's late 'end' (after a reconnect) is nobody's.
  let connected = false;
  const lost = (err: Error) => {
    if (tc.client !== client || (connected && tc.lost)) return;
    tc.lost = err;
    if (connected && watch && !watch.closing()) watch.onLost(tc, err);
  };
  client.on("error", (err) => lost(err));
  client.on("end", () => lost(new Error("the server closed the connection")));
  try {
    await client.connect();
  } catch (err) {
    await closeClient(client);
    throw new Error(connectFailure("cannot connect to the target", url, err), { cause: err });
  }
  // One round trip: the session settings the loops depend on, then the backend pid and the synchronous_commit the
  // session started with (a run's own comes with the URL's startup options). Set here rather than as startup
  // parameters, which a pooler in front of the server (PgBouncer) may refuse.
  const settings = [...SESSION_SETTINGS, ...(statementTimeoutMs ? [["statement_timeout", `${statementTimeoutMs}ms`]] : [])];
  let r: pg.QueryResult[];
  try {
    r = (await client.query(
      `${settings.map(([k, v]) => `SET ${k} = '${v}';`).join(" ")} SELECT pg_backend_pid() AS pid, current_setting('synchronous_commit') AS sync`,
    )) as unknown as pg.QueryResult[];
  } catch (err) {
    // Lost between its opening and its first answer (a backend terminated then): named as a loss later would be. Judged
    // before the close, whose 'end' marks tc lost: a statement the server refused is its own error, not a loss.
    const lost = isConnectionError(err, tc);
    await closeClient(client);
    throw lost ? new Error(lostConnection(tc.role, url, err), { cause: err }) : err;
  }
  const row = r[r.length - 1].rows[0];
  tc.pid = Number(row.pid);
  tc.synchronousCommit = String(row.sync);
  tc.lost = undefined;
  connected = true;
}

/** Opens `roles.length` clients at most `parallel` at a time (a burst of 250 connects overloads a small server). */
export async function openClients(
  url: string,
  roles: string[],
  parallel = 8,
  raw = true,
  watch?: LostWatch,
  statementTimeoutMs?: number,
): Promise<TargetClient[]> {
  const out: TargetClient[] = new Array(roles.length);
  let next = 0;
  let failure: unknown;
  const worker = async () => {
    while (next < roles.length && !failure) {
      const i = next++;
      try {
        out[i] = await openClient(url, roles[i], raw, undefined, watch, statementTimeoutMs);
      } catch (err) {
        failure ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, roles.length) }, worker));
  if (failure) {
    // Closed on purpose: marked first so their 'end' is not reported as a lost connection (the failure is).
    for (const c of out.filter(Boolean)) c.lost ??= new Error("closed after another connection failed to open");
    await Promise.all(out.filter(Boolean).map((c) => closeClient(c.client)));
    throw failure;
  }
  return out;
}

/** True for errors after which the connection is unusable (lost, terminated, server shutting down). */
export function isConnectionError(err: unknown, tc?: TargetClient): boolean {
  if (tc?.lost) return true;
  const e = err as { code?: string; message?: string };
  if (typeof e?.code === "string" && (e.code.startsWith("08") || ["57P01", "57P02", "57P03", "ECONNRESET", "EPIPE"].includes(e.code))) return true;
  return /Connection terminated|connection error|not queryable|Client was closed/i.test(e?.message ?? "");
}

/** Quotes an identifier for SQL (the schema name is ours, but quote anyway). */
export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** ROLLBACK that never throws (the connection may be gone, or no transaction open). */
export async function rollbackQuietly(c: pg.Client) {
  await c.query("ROLLBACK").catch(() => undefined);
}

/**
 * Counts the statements in flight on `tc` and when it last made progress: every statement (node-postgres' own
 * and the lean ones, runner/core/pg/leanquery.ts) goes through client.query and ends with one ReadyForQuery.
 */
function trackProgress(tc: TargetClient) {
  const client = tc.client as unknown as { query: (...args: unknown[]) => unknown; connection: { on(ev: string, fn: () => void): void } };
  const query = client.query.bind(client);
  client.query = (...args: unknown[]) => {
    if (tc.pending++ === 0) tc.busySince = clock();
    return query(...args);
  };
  client.connection.on("readyForQuery", () => {
    tc.pending = Math.max(0, tc.pending - 1);
    tc.busySince = clock();
  });
}

/** Closes the socket under a pg.Client at once: everything waiting on it rejects. */
export function destroyConnection(client: pg.Client) {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

/**
 * Ends a client politely, but never waits on the server longer than `ms`: a server that stopped answering never
 * acknowledges the goodbye, and client.end() would wait for ever. Then the socket is destroyed. Never throws.
 */
export async function closeClient(client: pg.Client, ms = 1000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const ended = client.end().then(
    () => true,
    () => true,
  );
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  if (!(await Promise.race([ended, late]))) destroyConnection(client);
  clearTimeout(timer);
}
