// Test helper: a run split into N parts, driven in this one process against a real target, as the coordinator
// and its part processes do (runner/parts/): one coordinating instance (no part) sets up, N part instances
// (their own stats, pacer at partPacing, connections of their own roles) run their loops, their ledgers go
// through JSON (as over IPC) to the coordinator's absorb, and its verify checks the whole run.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { payloadBytesOf, WorkloadConfig, type WorkloadInput } from "../lib/workloads/config";
import { type PartOfRun, partPacing } from "../lib/workloads/parts";
import { clock, openClient, Pacer, RunStats, type TargetClient } from "../runner/core";
import { RunControl, RunFootprint, RunnerLoadMeter, runLoad, sharedTimeline, writerIndexOf } from "../runner/harness";
import { type Ledger, runRoles, type WorkloadRun, type WorkloadVerification } from "./runtime";
import { runnerOf } from "./runners";

export interface DrivenPart {
  part: PartOfRun;
  run: WorkloadRun;
  stats: RunStats;
  ledger: Ledger;
}

export interface DrivenParts {
  parts: DrivenPart[];
  /** The coordinating instance (its notes) and its verification of the whole run, after absorbing every ledger. */
  coordinator: WorkloadRun;
  verification: WorkloadVerification;
  /** Another coordinating instance's verification (same schema, not set up again) from the given ledgers only:
   *  what verify makes of a part's missing ledger. */
  verifyWith(ledgers: Ledger[]): Promise<WorkloadVerification>;
  schema: string;
  drop(): Promise<void>;
}

/**
 * Runs `input` as `n` parts until `enough(parts)` says every part has done enough (checked every 50 ms, failing
 * after `boundMs`), then stops writers, then readers, and verifies on the coordinator. Each part runs the engine's
 * load step (runner/load.ts runLoad) from one shared start, as part processes do from the coordinator's barrier.
 */
export async function driveParts(
  url: string,
  input: WorkloadInput,
  n: number,
  enough: (parts: { part: PartOfRun; stats: RunStats }[]) => boolean,
  boundMs = 60_000,
): Promise<DrivenParts> {
  const config = WorkloadConfig.parse({ ...input, processes: n });
  const module = await runnerOf(config);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const schemaName = `pgbb_parts_${randomBytes(4).toString("hex")}`;
  const schema = `"${schemaName}"`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  const footprint = new RunFootprint();
  const instance = (part?: PartOfRun) => {
    const stats = new RunStats(runRoles.groups(module, config as never), payloadBytesOf(config) ?? 0, clock);
    const control = new RunControl(url);
    const pacer = new Pacer(partPacing(config, part), stats);
    const ctx = { config: config as never, targetUrl: url, schema, stats, pacer, writersStop: control.writersStop, readersStop: control.readersStop };
    const run = module.create({ ...ctx, fatal: control.fail, log: () => undefined, footprint, ...(part ? { part } : {}) });
    return { run, control, stats, pacer, part, writers: module.writerCount(config as never, part) };
  };
  const coordinator = instance();
  await coordinator.run.setup(admin);
  const parts = Array.from({ length: n }, (_, index) => instance({ index, of: n }));
  const clients: TargetClient[][] = [];
  try {
    for (const p of parts) clients.push(await Promise.all(p.run.roles.map((role) => openClient(url, role))));
    await loadParts(config, parts, clients, enough, boundMs);
  } finally {
    for (const p of parts) {
      await p.control.stopLoops(p.run);
      p.control.liveness.stop();
    }
    for (const cs of clients) for (const tc of cs) await tc.client.end().catch(() => undefined);
  }
  // Through JSON, as a part's ledger reaches the coordinator over IPC.
  const driven = parts.map((p) => ({ part: p.part!, run: p.run, stats: p.stats, ledger: JSON.parse(JSON.stringify(p.run.ledger!())) as Ledger }));
  coordinator.run.absorb!(driven.map((d) => d.ledger));
  const verification = await coordinator.run.verify(admin);
  return {
    parts: driven,
    coordinator: coordinator.run,
    verification,
    schema,
    async verifyWith(ledgers: Ledger[]) {
      const other = instance();
      other.run.absorb!(ledgers);
      return other.run.verify(admin);
    },
    async drop() {
      await footprint.undoRegistered(admin).catch(() => undefined);
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  };
}

type PartInstance = { run: WorkloadRun; control: RunControl; stats: RunStats; pacer: Pacer; part?: PartOfRun; writers: number };

/**
 * Every part's load at once: one start once every part's readers started, the measured window until `enough`
 * (or `boundMs`), the drain over once every part's writers are done; the first part's failure stops them all.
 */
async function loadParts(
  config: WorkloadConfig,
  parts: PartInstance[],
  clients: TargetClient[][],
  enough: (parts: { part: PartOfRun; stats: RunStats }[]) => boolean,
  boundMs: number,
) {
  const view = parts.map((p) => ({ part: p.part!, stats: p.stats }));
  const started = barrier(parts.length, () => clock());
  const writersDone = barrier(parts.length, () => undefined);
  Promise.race(parts.map((p) => p.control.failed)).catch((e: Error) => {
    for (const p of parts) p.control.fail(e);
  });
  // The measured window lasts until every part did enough: bounded by boundMs, without a warm-up.
  const window = { ...config, warmupSeconds: 0, durationSeconds: boundMs / 1000 } as WorkloadConfig;
  await Promise.all(
    parts.map(async (p, i) => {
      const writers = p.writers;
      const meter = new RunnerLoadMeter();
      try {
        await runLoad({
          ...{ config: window, run: p.run, stats: p.stats, pacer: p.pacer, meter, schedule: null, control: p.control },
          readers: clients[i].slice(writers),
          writers: clients[i].slice(0, writers),
          writerIndexes: p.run.roles.slice(0, writers).map(writerIndexOf),
          timeline: sharedTimeline(started),
          seconds: { cut: (phase) => p.stats.tick(phase), take: () => undefined },
          measureUntil: () => enough(view),
          drain: async () => {
            await p.run.writersDone();
            await Promise.race([writersDone(), p.control.failed]);
          },
        });
      } finally {
        meter.stop();
      }
    }),
  );
  if (!enough(view)) throw new Error(`the parts did not do enough within ${boundMs / 1000} s`);
}

/** Resolves every caller's promise with `value()` once `n` have called. */
function barrier<T>(n: number, value: () => T): () => Promise<T> {
  let waiting = 0;
  let open: (v: T) => void = () => undefined;
  const opened = new Promise<T>((r) => (open = r));
  return () => {
    if (++waiting === n) open(value());
    return opened;
  };
}
