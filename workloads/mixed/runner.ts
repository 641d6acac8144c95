// Mixed (server-only): the cache, job queue, search and notify workloads' own set-ups, requests and
// verifications, on one Yong driver (one pool, one load model). In a closed loop each VU belongs to one
// workload (cache VUs first, then the queue's producers and consumers, search, publishers); in an open loop
// each arrival is one workload's request, drawn in the VUs' proportions. Every request counts under its own
// operation and under "total" (the driver), so the aggregate's percentiles come from one merged histogram.
// Modded also schedules the article's pg_cron cache-expiry job, when the target has pg_cron.
import type pg from "pg";
import { unitWords } from "../../lib/words";
import { workloadDefinition } from "../../lib/workloads/config";
import type { TargetClient, RunFootprint, RunStats, OperationOptions } from "../../runner/core";
import { cache } from "../cache/runner";
import { jobqueue } from "../jobqueue/runner";
import { notify } from "../notify/runner";
import { inDoubtFact, type Ledger, runRoles, type WorkloadContext, type WorkloadVerification } from "../runtime";
import { search } from "../search/runner";
import { type YongRequest, type YongWorkload, yongModule } from "../yong/driver";
import { JOB_DELIVERY_OP, type MixedConfig, type MixedPart, mixedParts } from "./definition";

const FACTORIES = { cache: cache.workload, jobqueue: jobqueue.workload, search: search.workload, notify: notify.workload } as Record<
  MixedPart["kind"],
  (ctx: WorkloadContext<never>) => YongWorkload
>;

/** The stats a part records into: the run's, with some of its operation names changed (two parts time a "delivery"). */
function renamedStats(stats: RunStats, names: Record<string, string>): RunStats {
  return new Proxy(stats, {
    get(target, prop) {
      if (prop === "op") return (name: string, options?: OperationOptions) => target.op(names[name] ?? name, options);
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

/** The pg_cron job's name for a run: its schema, so a job left by a run that failed can be found and removed. */
const cronJobName = (schema: string) => `pgbb-cache-expiry-${schema.replace(/"/g, "")}`;

/**
 * Schedules `DELETE FROM cache_entries WHERE expires_at < now()` every minute with pg_cron (the article's modded
 * background job). Returns a note: scheduled, or skipped and why (the run goes on either way).
 */
async function scheduleCacheExpiry(admin: pg.Client, schema: string, footprint: RunFootprint): Promise<{ scheduled: boolean; note: string }> {
  const r = await admin.query<{ available: boolean; preload: string }>(
    `SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_cron') AS available, current_setting('shared_preload_libraries') AS preload`,
  );
  const skipped = (why: string) => ({ scheduled: false, note: `pg_cron cache-expiry job skipped: ${why}. The rest of the modded run is unchanged.` });
  if (!r.rows[0].available) return skipped("the pg_cron extension is not installed on the target server");
  if (!/(^|,)\s*pg_cron\s*(,|$)/.test(r.rows[0].preload))
    return skipped("pg_cron is not in the target's shared_preload_libraries (it must be loaded at server start)");
  try {
    // Created for the run if missing, and dropped after it when no other run or job uses it (runner/core/footprint.ts).
    const ext = await footprint.holdExtension(admin, "pg_cron");
    if (!ext.ok) return skipped(ext.why);
    // Jobs of earlier runs whose schema is gone (a run that failed before it could unschedule its own).
    await admin.query(
      `SELECT cron.unschedule(jobid) FROM cron.job
       WHERE jobname LIKE 'pgbb-cache-expiry-%' AND NOT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = substr(jobname, 19))`,
    );
    // Unscheduled at tear-down whatever the run's end (completed, failed, cancelled), before its schema goes.
    footprint.atTeardown("unschedule the pg_cron cache-expiry job", (a) => unscheduleCacheExpiry(a, schema));
    await admin.query("SELECT cron.schedule($1, '* * * * *', $2)", [cronJobName(schema), `DELETE FROM ${schema}.cache_entries WHERE expires_at < now()`]);
    return { scheduled: true, note: "pg_cron: the cache-expiry job ran every minute during the run (DELETE FROM cache_entries WHERE expires_at < now())" };
  } catch (err) {
    return skipped(`it could not be scheduled: ${(err as Error).message}`);
  }
}

/** Removes the run's pg_cron job if it is there (idempotent: verification unschedules it first on a run that gets there). */
function unscheduleCacheExpiry(admin: pg.Client, schema: string) {
  return admin.query("SELECT cron.unschedule(jobid) FROM cron.job WHERE jobname = $1", [cronJobName(schema)]);
}

class MixedWorkload implements YongWorkload {
  readonly notes: string[] = [];
  readonly vus: number;
  readonly ownRoles: string[];
  private readonly parts: { part: MixedPart; w: YongWorkload; firstVu: number }[] = [];
  private readonly notifyPart: YongWorkload | undefined;
  private cronScheduled = false;

  constructor(private readonly ctx: WorkloadContext<MixedConfig>) {
    let firstVu = 0;
    for (const part of mixedParts(ctx.config)) {
      const stats = renamedStats(ctx.stats, part.kind === "jobqueue" ? { delivery: JOB_DELIVERY_OP } : {});
      const w = FACTORIES[part.kind]({ ...ctx, config: part.config, stats } as never);
      this.parts.push({ part, w, firstVu });
      firstVu += part.vus;
    }
    this.vus = firstVu;
    this.notifyPart = this.parts.find((p) => p.part.kind === "notify")?.w;
    this.ownRoles = [...(this.notifyPart?.ownRoles ?? [])];
  }

  async setup(admin: pg.Client) {
    for (const { part, w } of this.parts) {
      const t0 = Date.now();
      await w.setup(admin);
      this.ctx.log(`${part.kind} ready (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    }
    if (this.ctx.config.variant === "modded") {
      if (this.parts.some((p) => p.part.kind === "cache")) {
        const cron = await scheduleCacheExpiry(admin, this.ctx.schema, this.ctx.footprint);
        this.cronScheduled = cron.scheduled;
        this.notes.push(cron.note);
      } else this.notes.push("pg_cron cache-expiry job skipped: the run has no cache VUs");
    }
  }

  /** The notify part's subscriber on the connections after the pool's; the others' own start (a part of a run over
   *  several processes learns the search corpus there) needs none. */
  async startOwn(clients: TargetClient[]) {
    await Promise.all(this.parts.map(({ w }) => w.startOwn?.(w === this.notifyPart ? clients : [])));
  }
  ownDone() {
    return this.notifyPart?.ownDone?.() ?? Promise.resolve();
  }

  ledger(): Ledger {
    return { parts: this.parts.map(({ w }) => w.ledger?.() ?? {}) };
  }

  absorb(ledgers: readonly Ledger[]) {
    this.parts.forEach(({ w }, i) => {
      w.absorb?.(ledgers.map((l) => (l.parts as Ledger[])[i]));
    });
  }

  next(vu: number | null): YongRequest {
    if (vu !== null) {
      for (let i = this.parts.length - 1; i >= 0; i--) {
        const p = this.parts[i];
        if (vu >= p.firstVu) return p.w.next(vu - p.firstVu);
      }
    }
    // Open loop: a part in proportion to its VUs.
    let x = Math.random() * this.vus;
    for (const p of this.parts) {
      if (x < p.part.vus) return p.w.next(null);
      x -= p.part.vus;
    }
    return this.parts[this.parts.length - 1].w.next(null);
  }

  async verify(admin: pg.Client): Promise<WorkloadVerification> {
    // Before verification, so the job deletes nothing while the parts are checked.
    if (this.cronScheduled) await unscheduleCacheExpiry(admin, this.ctx.schema).catch(() => undefined);
    const out: WorkloadVerification & { unreadAtEnd: number } = { ok: true, checked: 0, problems: [], facts: [], unreadAtEnd: 0 };
    const IN_DOUBT = inDoubtFact(0).name;
    let inDoubt = 0;
    for (const { part, w } of this.parts) {
      const v = await w.verify(admin);
      // Each part settled its own operations in doubt as its workload does (a run whose loops reconnect).
      inDoubt += Number(v.facts.find((f) => f.name === IN_DOUBT)?.value ?? 0);
      out.ok &&= v.ok;
      out.checked += v.checked;
      // Each part checks items of its own: its count in its declared unit, then its facts, named after it.
      const unit = workloadDefinition(part.kind)?.verifiedUnit ?? "item";
      out.facts.push(
        { name: `${part.kind}: ${unitWords(unit, v.checked)} checked`, value: v.checked, ok: v.ok },
        ...v.facts.map((f) => ({ ...f, name: `${part.kind}: ${f.name}` })),
      );
      out.unreadAtEnd += runRoles.unreadAtEnd(v);
      out.problems.push(...v.problems.map((p) => `${part.kind}: ${p}`));
      this.notes.push(...w.notes.map((n) => `${part.kind}: ${n}`));
    }
    // The run's in doubt, every part's together (each part's own is among its facts).
    if (this.ctx.reconnect) out.facts.push(inDoubtFact(inDoubt));
    return out;
  }
}

export const mixed = yongModule<MixedConfig>("mixed", (ctx) => new MixedWorkload(ctx));
