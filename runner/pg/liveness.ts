// Does the target still answer? A run's connections are watched for silence: a connection with a statement in
// flight that has heard nothing for a while may be in a long statement (a set-up's index build, a verification
// over a big table) or talking to a server that stopped (kill -STOP, a frozen VM, a cut network that TCP
// keepalive has not noticed yet). A short probe on a connection of its own tells the two apart: a server that
// answers it (even with an error such as "too many clients") is alive and the statement goes on; one that does
// not answer within the probe's timeout is declared unresponsive, and every connection of the run is destroyed
// so that nothing waits on it any longer.
//
// Bounds (documented in docs/operations.md, Faults, "When the target stops answering"):
// - normally: a statement silent for SILENCE_MS is probed, with PROBE_TIMEOUT_MS to answer: a stopped target
//   fails the run within about 20 s, naming it;
// - after a cancel: probed once silent URGENT_SILENCE_MS, URGENT_PROBE_TIMEOUT_MS to answer, so Cancel ends a
//   run within seconds; on a target that answers, the statements still in flight from before the cancel are
//   cancelled server-side (a long set-up statement would otherwise hold the cancel up).
import pg from "pg";
import { describeUrl } from "../../lib/targets/pgurl";
import { clock } from "../core/timing";
import { closeClient, destroyConnection, type TargetClient } from "../core/pg/pgclient";

export const SILENCE_MS = 10_000;
export const PROBE_TIMEOUT_MS = 10_000;
export const URGENT_SILENCE_MS = 1000;
export const URGENT_PROBE_TIMEOUT_MS = 3000;
const CHECK_EVERY_MS = 250;

/** The run's failure when the target stops answering: names the server, never the password. */
export class TargetUnresponsive extends Error {
  constructor(
    readonly where: string,
    readonly seconds: number,
  ) {
    super(`the target at ${where} did not answer for ${seconds} s`);
    this.name = "TargetUnresponsive";
  }
}

export interface LivenessOptions {
  silenceMs?: number;
  probeTimeoutMs?: number;
}

/** A server error (SQLSTATE) means the server answered; anything else (timeout, reset, refused) means it did not. */
const serverAnswered = (err: unknown) => /^[0-9A-Z]{5}$/.test(String((err as { code?: unknown })?.code ?? ""));

export class LivenessWatch {
  private readonly clients = new Set<TargetClient>();
  private timer: NodeJS.Timeout | undefined;
  private probing = false;
  private lastProbeEnd = 0;
  private urgentSince: number | undefined;
  private declared: TargetUnresponsive | undefined;

  constructor(
    private readonly url: string,
    /** Told once, when the target is declared unresponsive; the run's connections are already destroyed. */
    private readonly onUnresponsive: (err: TargetUnresponsive) => void,
    private readonly opts: LivenessOptions = {},
  ) {}

  /** Watches one more connection (from before it connects, so a hung connect can be destroyed too). */
  add(tc: TargetClient) {
    this.clients.add(tc);
    this.timer ??= setInterval(() => this.check(), CHECK_EVERY_MS);
    this.timer.unref();
  }

  private held = false;

  /** While the run restarts its target on purpose (RunControl.throughOutage): no probing, so the outage is not
   *  declared a target that stopped answering; the silence is counted afresh after it. */
  hold(on: boolean) {
    this.held = on;
    if (!on) this.lastProbeEnd = clock();
  }

  /** After a cancel: probe at the first short silence, with a short timeout. */
  urgent() {
    this.urgentSince ??= clock();
    this.check();
  }

  get unresponsive(): TargetUnresponsive | undefined {
    return this.declared;
  }

  stop() {
    clearInterval(this.timer);
    this.clients.clear();
  }

  /** Destroys every watched connection (marked lost with `err` first, so none reports itself as lost). */
  destroyAll(err: Error) {
    for (const tc of this.clients) {
      tc.lost ??= err;
      destroyConnection(tc.client);
    }
  }

  private check() {
    if (this.probing || this.declared || (this.held && this.urgentSince === undefined)) return;
    const now = clock();
    const urgent = this.urgentSince !== undefined;
    const silenceMs = urgent ? URGENT_SILENCE_MS : (this.opts.silenceMs ?? SILENCE_MS);
    // Not twice in a row for the same silence: a statement that outlives a good probe is probed again later.
    if (now - this.lastProbeEnd < silenceMs) return;
    const silent = [...this.clients].filter((tc) => !tc.lost && tc.pending > 0 && now - tc.busySince >= silenceMs);
    if (!silent.length) return;
    this.probing = true;
    void this.probe(silent, urgent).finally(() => {
      this.probing = false;
      this.lastProbeEnd = clock();
    });
  }

  private async probe(silent: TargetClient[], urgent: boolean) {
    const timeoutMs = urgent ? URGENT_PROBE_TIMEOUT_MS : (this.opts.probeTimeoutMs ?? PROBE_TIMEOUT_MS);
    const client = new pg.Client({
      connectionString: this.url,
      connectionTimeoutMillis: timeoutMs,
      query_timeout: timeoutMs,
      application_name: "pgbb probe",
    });
    client.on("error", () => undefined); // a failure surfaces as the rejected connect or query below
    try {
      await client.connect();
      // Alive. After a cancel, what the run still waits on from before it is cancelled on the server.
      const since = this.urgentSince;
      const stuck = since === undefined ? [] : silent.filter((tc) => tc.pid > 0 && tc.busySince < since).map((tc) => tc.pid);
      await client.query(stuck.length ? "SELECT pg_cancel_backend(pid) FROM unnest($1::int[]) AS pid" : "SELECT 1", stuck.length ? [stuck] : []);
    } catch (err) {
      if (!serverAnswered(err)) this.declare(silent);
    } finally {
      await closeClient(client, 500);
    }
  }

  private declare(silent: TargetClient[]) {
    if (this.declared) return;
    const longest = Math.max(...silent.map((tc) => clock() - tc.busySince));
    this.declared = new TargetUnresponsive(describeUrl(this.url), Math.round(longest / 1000));
    this.destroyAll(this.declared);
    this.onUnresponsive(this.declared);
  }
}
