// Test helper: a run split into N parts, driven in this one process against a real target, as the coordinator
// and its part processes do (runner/parts/): one coordinating instance (no part) sets up, N part instances
// (their own stats, pacer at partPacing, connections of their own roles) run their loops, their ledgers go
// through JSON (as over IPC) to the coordinator's absorb, and its verify checks the whole run.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { payloadBytesOf, WorkloadConfig, type WorkloadInput } from "../lib/workloads/config";
import { type PartOfRun, partPacing } from "../lib/workloads/parts";
import { clock, openClient, Pacer, RunStats, Stopper, type TargetClient } from "../runner/core";
import { RunFootprint } from "../runner/harness";
import { type Ledger, runRoles, type WorkloadRun, type WorkloadVerification } from "./runtime";
import { workloadFor } from "./runners";

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
 * after `boundMs`), then stops writers, then readers, and verifies on the coordinator.
 */
export async function driveParts(
  url: string,
  input: WorkloadInput,
  n: number,
  enough: (parts: { part: PartOfRun; stats: RunStats }[]) => boolean,
  boundMs = 60_000,
): Promise<DrivenParts> {
  const config = WorkloadConfig.parse({ ...input, processes: n });
  const module = workloadFor(config);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const schemaName = `pgbb_parts_${randomBytes(4).toString("hex")}`;
  const schema = `"${schemaName}"`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  const footprint = new RunFootprint();
  const errors: Error[] = [];
  const instance = (part?: PartOfRun) => {
    const stats = new RunStats(runRoles.groups(module, config as never), payloadBytesOf(config) ?? 0, clock);
    const ctx = {
      config: config as never,
      schema,
      stats,
      pacer: new Pacer(partPacing(config, part), stats),
      writersStop: new Stopper(),
      readersStop: new Stopper(),
      fatal: (e: Error) => {
        errors.push(e);
        ctx.writersStop.stop();
        ctx.readersStop.stop();
      },
      log: () => undefined,
      footprint,
      ...(part ? { part } : {}),
    };
    return { run: module.create(ctx), ctx, stats, part };
  };
  const coordinator = instance();
  await coordinator.run.setup(admin);
  const parts = Array.from({ length: n }, (_, index) => instance({ index, of: n }));
  const clients: TargetClient[][] = [];
  try {
    for (const p of parts) clients.push(await Promise.all(p.run.roles.map((role) => openClient(url, role))));
    const writers = parts.map((p) => module.writerCount(config as never, p.part));
    await Promise.all(parts.map((p, i) => runRoles.startReaders(p.run, clients[i].slice(writers[i]))));
    const at = clock();
    parts.forEach((p, i) => {
      p.stats.markLoadStart();
      p.ctx.pacer.begin(at, writers[i]);
      p.run.startWriters(clients[i].slice(0, writers[i]));
    });
    const until = Date.now() + boundMs;
    const view = parts.map((p) => ({ part: p.part!, stats: p.stats }));
    while (!enough(view) && !errors.length) {
      if (Date.now() > until) throw new Error(`the parts did not do enough within ${boundMs / 1000} s`);
      await new Promise((r) => setTimeout(r, 50));
    }
    for (const p of parts) p.ctx.writersStop.stop();
    await Promise.all(parts.map((p) => p.run.writersDone()));
    for (const p of parts) p.ctx.readersStop.stop();
    await Promise.all(parts.map((p) => runRoles.readersDone(p.run)));
  } finally {
    for (const cs of clients) for (const tc of cs) await tc.client.end().catch(() => undefined);
  }
  if (errors.length) throw errors[0];
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
