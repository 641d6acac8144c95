// A runner carrying a part of another runner's run (issue #23, "processes on other machines"): it claimed the
// part's run_part row (./remote-store.ts claimPart), forks the SAME part process a coordinator forks
// (./part-main.ts) and relays between its IPC channel and the control store, unchanged, in both directions. What
// it adds: its heart-beat on the row (a coordinator fails the run when it stops), the part's clock against the
// target's before relaying `ready` (./target-clock.ts: the coordinator measures its own the same way and corrects
// the part by the difference) and again before relaying `done` (the coordinator says how far it drifted), and the
// part's exit (code, signal, last lines) as one more message.
import type { ChildProcess } from "node:child_process";
import os from "node:os";
import type pg from "pg";
import { clock } from "../core/timing";
import { type ClaimedPart, connectStore, type ExitedMessage, PART_HEARTBEAT_MS, PartMailbox, sql, wakeFor } from "./remote-store";
import { forkPart, partEntry } from "./part-entry";
import { type ClockOffset, offsetToTarget } from "./target-clock";

/** A part told to stop gets this long to exit before it is killed. */
const STOP_GRACE_MS = 3000;
const PROBES = 10;

type Body = { type?: string; [k: string]: unknown };

/** Carries a claimed part to its end; resolves with how its process ended. Never throws. */
export async function carryPart(
  controlUrl: string,
  claimed: ClaimedPart,
  log: (line: string) => void,
  signal?: AbortSignal,
): Promise<{ ok: boolean; error?: string }> {
  const { runId, part } = claimed;
  const say = (line: string) => log(`${runId} part ${part}: ${line}`);
  let child: ChildProcess | undefined;
  let store: pg.Client | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let stopping = false;
  const stop = (why: string) => {
    if (stopping || !child || child.exitCode !== null || child.signalCode !== null) return;
    stopping = true;
    say(`stopping the part: ${why}`);
    if (child.connected) child.send({ type: "stop", reason: why });
    setTimeout(() => child?.kill("SIGKILL"), STOP_GRACE_MS).unref();
  };
  try {
    const entry = await partEntry();
    if (entry.fallback) say(`its part runs its sources under tsx (slower to start): ${entry.fallback}`);
    let mailbox: PartMailbox | undefined;
    const wake = wakeFor(runId, part, true);
    store = await connectStore(
      controlUrl,
      (payload) => payload === wake && void mailbox?.pump(true, toChild).catch(() => undefined),
      (err) => stop(`the control store connection was lost (${err.message})`),
    );
    mailbox = new PartMailbox(store, runId, part);
    const c = store;
    child = forkPart(entry);
    const forked = child;
    await sql(c, "UPDATE run_part SET backend_pid = pg_backend_pid(), pid = $3, host = $4 WHERE run_id = $1 AND part = $2", [
      runId,
      part,
      forked.pid ?? null,
      os.hostname(),
    ]);
    say(`carrying it (pid ${forked.pid})`);
    const tail: string[] = [];
    const lines = (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n").filter(Boolean)) {
        tail.push(line);
        if (tail.length > 5) tail.shift();
        log(`${runId} ${line}`);
      }
    };
    forked.stdout?.on("data", lines);
    forked.stderr?.on("data", lines);
    const relay = new Relay(c, mailbox, forked, say);
    const toChild = (body: unknown) => relay.toChild(body as Body);
    forked.on("message", (m) => relay.fromChild(m as Body));
    // A fork that could not start (or a channel error) must not take the runner down: its close ends the carry.
    forked.on("error", (err) => say(`its process: ${err.message}`));
    const closed = new Promise<{ code: number | null; signal: string | null }>((r) => forked.on("close", (code, sig) => r({ code, signal: sig })));
    signal?.addEventListener("abort", () => stop("the runner carrying it was stopped"));
    heartbeat = setInterval(() => void beat(c, claimed, stop), PART_HEARTBEAT_MS);
    await mailbox.pump(true, toChild);
    const poll = setInterval(() => void mailbox?.pump(true, toChild).catch(() => undefined), 1000);
    const end = await closed;
    clearInterval(poll);
    await relay.settled();
    const exited: ExitedMessage = { type: "exited", code: end.code, signal: end.signal, tail };
    await mailbox.post(false, exited);
    if (!relay.done) {
      const how = end.signal ? `exited with ${end.signal}` : `exited with code ${end.code}`;
      await sql(c, "UPDATE run_part SET status = 'failed', error = coalesce(error, $3) WHERE run_id = $1 AND part = $2 AND status <> 'done'", [
        runId,
        part,
        how,
      ]);
      return { ok: false, error: `the part ${how}` };
    }
    return { ok: true };
  } catch (err) {
    stop("its runner could not relay it");
    const error = (err as Error).message;
    say(`could not carry it: ${error}`);
    if (store)
      await sql(store, "UPDATE run_part SET status = 'failed', error = coalesce(error, $3) WHERE run_id = $1 AND part = $2", [runId, part, error]).catch(
        () => undefined,
      );
    return { ok: false, error };
  } finally {
    clearInterval(heartbeat);
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await store?.end().catch(() => undefined);
  }
}

/** Heart-beats the part's row; stops the part once the coordinator gave it up or its run is over. */
async function beat(c: pg.Client, claimed: ClaimedPart, stop: (why: string) => void) {
  try {
    const r = await sql<{ status: string; run: string | null; coordinatorGone: boolean }>(
      c,
      `UPDATE run_part p SET heartbeat_at = now() WHERE run_id = $1 AND part = $2
       RETURNING p.status::text, (SELECT status::text FROM run WHERE id = p.run_id) AS run,
         NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = p.coordinator_backend_pid) AS "coordinatorGone"`,
      [claimed.runId, claimed.part],
    );
    const row = r.rows[0];
    if (!row) stop("its run was deleted");
    else if (row.status === "failed") stop("the run's coordinator gave it up");
    else if (row.coordinatorGone) stop("the run's coordinating runner is gone (its control-store session ended)");
    else if (row.run !== "running") stop(`its run is ${row.run}`);
  } catch {
    // The control store did not answer this beat: the next one tries again (the coordinator judges the silence).
  }
}

/** Relays one part's messages, in order in each direction, adding its clock against the target's to `ready`. */
class Relay {
  done = false;
  private targetUrl: string | undefined;
  private chain: Promise<void> = Promise.resolve();
  private pongs = new Map<number, (partClock: number) => void>();

  constructor(
    private readonly c: pg.Client,
    private readonly mailbox: PartMailbox,
    private readonly child: ChildProcess,
    private readonly say: (line: string) => void,
  ) {}

  toChild(m: Body) {
    if (m.type === "run" && typeof m.targetUrl === "string") this.targetUrl = m.targetUrl;
    if (m.type === "start") void this.setStatus("running");
    if (this.child.connected) this.child.send(m);
  }

  fromChild(m: Body) {
    // Its answers to this runner's clock probes stay here; the coordinator never pings a part it does not fork.
    if (m.type === "pong") return this.pongs.get(m.t as number)?.(m.partClock as number);
    this.chain = this.chain.then(() => this.forward(m)).catch((err) => this.say(`could not relay its ${m.type}: ${(err as Error).message}`));
  }

  private async forward(m: Body) {
    if (m.type === "ready") await this.measureClock();
    if (m.type === "done") {
      this.done = true;
      // Its clock against the target's again, now its load is done: the coordinator says how far it drifted.
      const end = await this.targetOffset().catch((err: Error) => {
        this.say(`could not measure its clock again at the end: ${err.message}`);
        return null;
      });
      await sql(this.c, "UPDATE run_part SET status = 'done', start_skew_ms = $3, target_offset_end_ms = $4 WHERE run_id = $1 AND part = $2", [
        this.mailbox.runId,
        this.mailbox.part,
        m.startSkewMs,
        end?.offsetMs ?? null,
      ]);
    }
    if (m.type === "failed")
      await sql(this.c, "UPDATE run_part SET status = 'failed', error = $3 WHERE run_id = $1 AND part = $2", [this.mailbox.runId, this.mailbox.part, m.error]);
    await this.mailbox.post(false, m);
  }

  /** The part's clock minus this runner's (IPC probes, the shortest round trip's), measured once: one host's clock. */
  private partToHere: ClockOffset | undefined;

  /** The part's clock minus the target's: its clock minus this runner's plus this one's minus the target's. */
  private async targetOffset(): Promise<ClockOffset> {
    if (!this.targetUrl) throw new Error("the part became ready before its run message arrived");
    this.partToHere ??= await this.probePart();
    const target = await offsetToTarget(this.targetUrl);
    return { offsetMs: this.partToHere.offsetMs + target.offsetMs, uncertaintyMs: this.partToHere.uncertaintyMs + target.uncertaintyMs };
  }

  private async probePart(): Promise<ClockOffset> {
    let best = { rtt: Number.POSITIVE_INFINITY, offset: 0 };
    for (let k = 0; k < PROBES; k++) {
      const t = clock();
      const partClock = await new Promise<number>((resolve) => {
        this.pongs.set(t, resolve);
        this.child.send({ type: "ping", t });
      });
      this.pongs.delete(t);
      const back = clock();
      if (back - t < best.rtt) best = { rtt: back - t, offset: partClock - (t + back) / 2 };
    }
    return { offsetMs: best.offset, uncertaintyMs: best.rtt / 2 };
  }

  private async measureClock() {
    const { offsetMs, uncertaintyMs } = await this.targetOffset();
    await sql(this.c, "UPDATE run_part SET status = 'ready', target_offset_ms = $3, target_uncertainty_ms = $4 WHERE run_id = $1 AND part = $2", [
      this.mailbox.runId,
      this.mailbox.part,
      offsetMs,
      uncertaintyMs,
    ]);
  }

  private async setStatus(status: string) {
    await sql(this.c, "UPDATE run_part SET status = $3 WHERE run_id = $1 AND part = $2 AND status NOT IN ('done', 'failed')", [
      this.mailbox.runId,
      this.mailbox.part,
      status,
    ]).catch(() => undefined);
  }

  /** Every message the part sent is stored. */
  async settled() {
    await this.chain;
    await this.mailbox.flushed();
  }
}
