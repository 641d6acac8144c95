// What Aaron Yong's "just use Postgres" workloads share (browser-safe): the baseline/modded `variant`, the load
// model (the article's closed loop of k6 virtual users with think time, or the product's open-loop target rate),
// the API's connection pool, the metric names and the words every published figure of that study carries.
// Not a workload: cache/, jobqueue/, search/, notify/ and mixed/ build their definitions from these pieces, and
// driver.ts (server-only) runs their requests.
import type { z } from "zod";
import { field, type FieldsOutput, paramsObject, plural, timingFields, whenValid } from "../fields";
import { type FieldDef, type OperationDef, ownedCount, type Pacing, type PartsDef, type RateKnob } from "../types";

export const VARIANTS = ["baseline", "modded"] as const;
export type Variant = (typeof VARIANTS)[number];

/** baseline | modded: the naive pattern or the Postgres feature, on the same server and under the same load. */
export function variantField(baseline: string, modded: string) {
  return field({
    name: "variant",
    label: "Variant",
    hint: "the article's naive pattern (baseline) or the Postgres feature (modded)",
    control: "select",
    default: "baseline",
    group: "load",
    options: [
      { value: "baseline", label: "baseline", description: baseline },
      { value: "modded", label: "modded", description: modded },
    ],
    cli: {
      flag: "variant",
      ours: true,
      help: `baseline (${baseline}) or modded (${modded}); "both" runs --pairs N pairs (default 3) in ABBA order and compares them with their noise`,
    },
    compareLabel: "Variant",
  });
}

export const LOAD_MODELS = ["vus", "rate"] as const;
export type LoadModel = (typeof LOAD_MODELS)[number];

/** The open-loop rate a config gets when none is given (requests/s). */
export const DEFAULT_RATE = 500;

/**
 * The load model: `vus` (closed loop: each virtual user sends a request, waits for the answer, sleeps the think
 * time, as k6 VUs) or `rate` (open loop: requests start on a fixed timetable whatever the answers do, latency
 * timed from each one's scheduled start). Left out, it follows from what is given: a `rate` means open loop.
 */
export const loadField = field({
  name: "load",
  label: "Load model",
  hint: "how requests are started",
  control: "select",
  group: "load",
  options: [
    {
      value: "vus",
      label: "closed loop: virtual users",
      description: "each virtual user sends a request, waits for its answer, then thinks: as the article's k6 VUs",
    },
    {
      value: "rate",
      label: "open loop: target rate",
      description: "requests start on a fixed timetable whatever the answers do; latency is timed from each one's scheduled start",
    },
  ],
  cli: { flag: "load", ours: true, help: "vus (closed loop of virtual users with think time, default) or rate (open loop at --rate); --rate alone means rate" },
  compareLabel: "Load model",
});

/** Virtual users of the closed loop. `what` names them ("virtual users", "producer VUs"). */
export function vusField<const N extends string = "vus">(o: {
  name?: N;
  label?: string;
  what?: string;
  default: number;
  flag?: string;
  compareLabel?: string;
}) {
  return field({
    name: (o.name ?? "vus") as N,
    label: o.label ?? "Virtual users",
    hint: `closed loop: ${o.what ?? "virtual users"}, each one request at a time`,
    control: "int",
    min: 0,
    max: 20_000,
    default: o.default,
    group: "load",
    cli: { flag: o.flag ?? "vus", ours: true, help: `closed loop: ${o.what ?? "virtual users"} (default ${o.default})` },
    compareLabel: o.compareLabel ?? "Virtual users",
  });
}

export function thinkField(defaultMs: number) {
  return field({
    name: "thinkMs",
    label: "Think time",
    unit: "ms",
    hint: "closed loop: each virtual user's sleep after an answer (k6 sleep); 0 = no sleep",
    control: "int",
    min: 0,
    max: 600_000,
    default: defaultMs,
    group: "load",
    cli: { flag: "think", ours: true, duration: "ms", help: `closed loop: sleep after each answer, e.g. 100ms, 1s, 0 (default ${defaultMs}ms)` },
    compareLabel: "Think time (ms)",
  });
}

/** Optional in the schema (its presence picks open loop when `load` is left out); the transform fills DEFAULT_RATE. */
export const rateField = field({
  name: "rate",
  label: "Target rate",
  unit: "req/s",
  hint: "open loop: requests started per second, on a fixed timetable",
  control: "int",
  min: 1,
  max: 1_000_000,
  group: "load",
  cli: { flag: "rate", ours: true, help: `open loop: requests started per second (implies --load rate; default ${DEFAULT_RATE})` },
  compareLabel: "Target rate (req/s)",
});

/** node-postgres' Pool default (`max: 10`), which the article's Express API used as far as anyone can tell. */
export const DEFAULT_POOL = 10;

export const poolField = field({
  name: "pool",
  label: "Connection pool",
  unit: "connections",
  hint: "connections requests share, as the article's API pool (node-postgres' default is 10)",
  control: "int",
  min: 1,
  max: 1000,
  default: DEFAULT_POOL,
  group: "load",
  cli: { flag: "pool", ours: true, help: `connections the requests share, as an API's pg pool (default ${DEFAULT_POOL})` },
  compareLabel: "Connection pool",
});

/** Warm-up, measured window and the CLI's report interval: the timing fields every workload has. */
export { timingFields };

/** What `yongParams` makes of a Yong field table: the rows' parsed values, with the load model and the rate
 *  always filled in. */
type YongOutput<F extends FieldDef> = Omit<FieldsOutput<F>, "load" | "rate"> & { load: LoadModel; rate: number };

/** What every Yong config has besides its own fields, read from the shared rows (not restated). */
export type YongCommon = YongOutput<
  ReturnType<typeof variantField> | typeof loadField | ReturnType<typeof thinkField> | typeof rateField | typeof poolField | (typeof timingFields)[number]
>;

/**
 * The params schema of a Yong workload: its field table, plus the load model made explicit (left out, a given
 * rate means open loop) and the rate filled in, so a stored config always says which model ran. `vuFields` are
 * the fields that count virtual users: a closed loop needs at least one.
 */
export function yongParams<K extends string, F extends FieldDef>(kind: K, fields: readonly F[], vuFields: string[]) {
  return paramsObject(kind, fields)
    .superRefine(
      (p, ctx) => {
        const c = p as unknown as Record<string, number | string | undefined>;
        if ((c.load ?? (c.rate !== undefined ? "rate" : "vus")) !== "vus") return;
        if (vuFields.reduce((s, f) => s + Number(c[f] ?? 0), 0) > 0) return;
        const labels = vuFields.map((f) => fields.find((x) => x.name === f)?.label ?? f);
        ctx.addIssue({
          code: "custom",
          path: [vuFields[0]],
          message: `${labels.join(" + ")} must be at least 1 for a closed loop (or pick the open-loop load model with a target rate)`,
        });
      },
      whenValid("load", "rate", ...vuFields),
    )
    .transform((p) => {
      const c = p as unknown as { load?: LoadModel; rate?: number };
      return { ...p, load: c.load ?? (c.rate !== undefined ? "rate" : "vus"), rate: c.rate ?? DEFAULT_RATE } as unknown as { kind: K } & YongOutput<F>;
    });
}

/** The open loop's rate as the knob a ceiling search raises: a closed-loop config becomes open loop at that rate. */
export const yongRateKnob = (): RateKnob => ({
  fields: ["load", "rate"],
  set: (c, perSecond) => ({ ...c, load: "rate", rate: perSecond }),
});

/** The load model as pacing: requests (all of them, TOTAL_OP) started at `rate` on a timetable, or `vus` virtual
 *  users (the sum of the workload's VU fields) with think time. */
export function yongPacing(c: YongCommon, vus: number): Pacing {
  return c.load === "rate"
    ? { kind: "open-loop", targetPerSecond: c.rate, unit: "req", operation: TOTAL_OP }
    : { kind: "closed-loop", unit: "req", operation: TOTAL_OP, virtualUsers: vus, thinkMs: c.thinkMs };
}

/**
 * How a Yong run splits over runner processes: each part owns pool connections by index ("pool 3" is the same
 * connection name in every part) and, in a closed loop, virtual users by index (VU 7 runs in part 7 mod N, with
 * the requests of VU 7). An open loop's arrivals go to each part in proportion to its connections, which serve
 * them. `vus` counts the config's virtual users; `vuFields` names the field(s) that set them.
 */
export function yongParts<C extends YongCommon>(vus: (c: C) => number, vuFields: string): PartsDef<C> {
  // In a closed loop each part needs a virtual user and a connection: the fewer of the two limits the split.
  const vusLimit = (c: C) => c.load === "vus" && vus(c) < c.pool;
  return {
    unit: (c) => (vusLimit(c) ? "virtual user" : "pool connection"),
    field: (c) => (vusLimit(c) ? vuFields : "pool"),
    max: (c) => (c.load === "vus" ? Math.min(vus(c), c.pool) : c.pool),
    share: (c, part) => (c.load === "vus" ? ownedCount(vus(c), part) / vus(c) : ownedCount(c.pool, part) / c.pool),
  };
}

/** "200 VUs, 100 ms think" or "open loop 500 req/s", then the pool: describe()'s load parts. */
export function loadParts(c: YongCommon, vus: string): string[] {
  const model = c.load === "rate" ? `open loop ${c.rate.toLocaleString("en-US")} req/s` : `${vus}, ${c.thinkMs ? `${c.thinkMs} ms think` : "no sleep"}`;
  return [c.variant, model, `pool ${c.pool}`, `${c.durationSeconds.toLocaleString("en-US")} s measured`];
}

/** The load model in words, as a published result states it: "closed loop, 200 VUs, 100 ms think". */
export function loadModelWords(c: YongCommon, vus: number): string {
  return c.load === "rate"
    ? `open loop: ${c.rate.toLocaleString("en-US")} requests/s on a fixed timetable`
    : `closed loop: ${plural(vus, "virtual user")}, ${c.thinkMs ? `${c.thinkMs} ms think time` : "no sleep"}`;
}

/** Metric names every Yong workload records (driver.ts): all requests together, and time on the connection. */
export const TOTAL_OP = "total";
export const STATEMENT_OP = "statement";
export const POOL_WAIT_OP = "poolWait";

/**
 * The metric model's operations: each request type (its rate, errors and request latency, pool wait included),
 * then all requests together (what the article's k6 reported: "Requests"/s and http_req_duration), then the
 * time each request held its connection (its statements alone) and the wait for one.
 */
export function requestOperations(ops: { name: string; label: string; unit?: string; latencySample?: string }[]): OperationDef[] {
  return [
    ...ops.map(
      (o): OperationDef => ({
        name: o.name,
        label: o.label,
        unit: o.unit ?? "req",
        rate: true,
        latency: true,
        errors: true,
        latencySample: o.latencySample ?? "per request, pool wait included",
      }),
    ),
    {
      name: TOTAL_OP,
      label: "all requests",
      unit: "req",
      rate: true,
      latency: true,
      errors: true,
      latencySample: "per request, pool wait included",
      chart: { title: "Request latency", hint: "all requests, pool wait included" },
    },
    {
      name: STATEMENT_OP,
      label: "statements",
      unit: "req",
      rate: false,
      latency: true,
      errors: false,
      latencySample: "per request, its statements alone (while it holds its pool connection)",
    },
    {
      name: POOL_WAIT_OP,
      label: "pool wait",
      unit: "req",
      rate: false,
      latency: true,
      errors: false,
      latencySample: "per request, waiting for a free pool connection",
    },
  ];
}

/** Where the article's numbers were measured, and on what: every Yong published result says so. */
export const YONG = {
  server:
    "Docker container limited to 2 CPUs and 2 GB RAM, PostgreSQL 17, shared postgresql.conf (shared_buffers 512MB, effective_cache_size 1536MB, work_mem 16MB, random_page_cost 1.1, effective_io_concurrency 200); k6 and the API on the same host",
  measuredThrough: "HTTP round trip: k6 → Express API → node-postgres pool (10 connections, its default) → Postgres",
  /** The article (freeCodeCamp; read through copies, its author's repository is not public) and the table. */
  source: (table: string) => `Aaron Yong, "How to Use PostgreSQL as a Cache, Queue, and Search Engine" (freeCodeCamp), ${table}`,
  caveats: {
    http: {
      by: "found" as const,
      text: "Latencies are HTTP round trips through the Express API and its pool, queueing included; ours go from the runner straight to Postgres. Compare the baseline → modded deltas, not absolute latencies.",
    },
    generator: {
      by: "found" as const,
      text: "k6, the API and both databases shared one host: throughput may be bound by the load generator and the API, not by Postgres.",
    },
    thinkTime: {
      by: "found" as const,
      text: "The article states no think time or stages; the preset's think time is derived (ours) from its published figures: the iteration time (VUs ÷ requests/s) less the modded run's average latency. It is not tuned to this machine, so our requests/s may differ from the published ones.",
    },
  },
};

export type { z };
