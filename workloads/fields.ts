// Building blocks of workload definitions: the schema of a field table, and the fields every message
// workload shares. Browser-safe. Defaults are the reference tool's (pg-queue-pubsub-benchmark main.go).
import { z } from "zod";
import { BACKOFF_MODES, type BackoffMode } from "../lib/backoff";
import { PHASE_DOES, PHASE_KINDS, parsePhases, phasesText } from "../lib/phases/shape";
import { SYNC_COMMIT_LEVELS, SYNC_COMMIT_WAITS } from "../lib/sync-commit";
import { longRunConfigProblem, type LongRunFields } from "../lib/workloads/long-run";
import type { FieldDef, FieldGroup, MetricModel, Pacing, RateKnob } from "./types";

/** "1,800 s", "1 msg", "100 msgs": a number as a message shows it, with the field's unit. */
export function amount(n: number, unit: string | undefined): string {
  const v = n.toLocaleString("en-US");
  if (!unit) return v;
  return `${v} ${n === 1 && (unit === "msgs" || unit === "bytes") ? unit.slice(0, -1) : unit}`;
}

/**
 * A whole-number field. Absent (undefined) takes the default where there is one; anything present must be
 * usable: a blank or non-numeric value is refused, never replaced by the default the user did not see.
 */
const int = (label: string, unit: string | undefined, min: number, max: number) =>
  z
    .number({
      error: (iss) =>
        iss.input === null || (typeof iss.input === "string" && iss.input.trim() === "")
          ? `${label} is required: enter a whole number`
          : typeof iss.input === "string"
            ? `${label} must be a whole number, not "${iss.input}"`
            : `${label} must be a whole number`,
    })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${amount(min, unit)}`)
    .max(max, `${label} must be at most ${amount(max, unit)}`);

/** The Zod schema of one field, from its table row. */
function fieldSchema(f: FieldDef): z.ZodType {
  const values = (f.options ?? []).map((o) => o.value);
  const base =
    f.control === "bool"
      ? z.boolean({ error: `${f.label} must be true or false` })
      : f.control === "select"
        ? z.enum(values as [string, ...string[]], { error: `${f.label} must be one of ${values.map((v) => `"${v}"`).join(", ")}` })
        : f.control === "text"
          ? textSchema(f)
          : int(f.label, f.unit, f.min ?? 0, f.max ?? Number.MAX_SAFE_INTEGER);
  return f.default === undefined ? base.optional() : (base as z.ZodType<unknown>).default(f.default as never);
}

/** A text field's schema: trimmed, not blank, then its own check, stored in its canonical spelling. */
function textSchema(f: FieldDef): z.ZodType {
  const text = z
    .string({ error: `${f.label} must be text` })
    .trim()
    .min(1, `${f.label} is required`);
  const checked = f.check
    ? text.superRefine((v, ctx) => {
        const problem = f.check!(v);
        if (problem) ctx.addIssue({ code: "custom", message: `${f.label}: ${problem}` });
      })
    : text;
  return f.canonical ? checked.transform(f.canonical) : checked;
}

/**
 * A check across fields runs whenever those fields are valid on their own, even when others are not, so
 * every bad field is reported at once (Zod's default skips object checks once any field failed).
 */
export const whenValid = (...fields: string[]) => ({
  when: (payload: { issues: readonly { path?: readonly PropertyKey[] }[] }) =>
    !payload.issues.some((i) => i.path?.length && fields.includes(String(i.path[0]))),
});

/** A field row kept with its literal name, control, default and options, so the params builder can type the
 *  config from the table (no config interface restated beside it). */
export const field = <const F extends FieldDef>(f: F): F => f;
/** A field table, its rows kept as `field` keeps one. */
export const fieldTable = <const F extends FieldDef>(fields: readonly F[]): F[] => [...fields];

/** The value a field's row parses to: its control's type, or one of a select's option values. */
type ValueOf<F> = F extends { control: "int" }
  ? number
  : F extends { control: "bool" }
    ? boolean
    : F extends { control: "text" }
      ? string
      : F extends { options: readonly { value: infer V }[] }
        ? V
        : never;
type Defaulted<F> = F extends { default: number | boolean | string } ? F : never;

/** The parsed config of a table of fields (a union of their rows): a field with a default is always there, one
 *  without (derived, or optional) may be absent. */
export type FieldsOutput<F extends FieldDef> = { [P in Defaulted<F> as P["name"]]: ValueOf<P> } & {
  [P in Exclude<F, Defaulted<F>> as P["name"]]?: ValueOf<P>;
};
/** What a table of fields accepts: any field may be left out. */
export type FieldsInput<F extends FieldDef> = { [P in F as P["name"]]?: ValueOf<P> };

/**
 * The strict object schema of a field table: `kind` is the literal, every field as its row says. Unknown
 * fields are refused (a misspelt "writer" must not launch the default writers unnoticed); fieldErrors puts
 * the message under each unknown name. Its output type is the table's (FieldsOutput): the rows, built with
 * `field`, carry their names and types.
 */
export function paramsObject<K extends string, F extends FieldDef>(kind: K, fields: readonly F[]) {
  const shape: Record<string, z.ZodType> = { kind: z.literal(kind) };
  for (const f of fields) shape[f.name] = fieldSchema(f);
  const names = fields.map((f) => f.name).join(", ");
  const object = z.strictObject(shape, {
    error: (iss) => (iss.code === "unrecognized_keys" ? `is not a field of a ${kind} workload (its fields: kind, ${names})` : undefined),
  });
  // A long run's minimum needs its autovacuum count (lib/workloads/long-run.ts), in every workload with timingFields.
  const checked = fields.some((f) => f.name === "untilAutovacuums")
    ? object.superRefine(
        (c, ctx) => {
          const p = longRunConfigProblem(c as unknown as LongRunFields);
          if (p) ctx.addIssue({ code: "custom", path: [p.path], message: p.message });
        },
        whenValid("untilAutovacuums", "minDurationSeconds"),
      )
    : object;
  return checked as unknown as z.ZodType<{ kind: K } & FieldsOutput<F>, { kind: K } & FieldsInput<F>>;
}

/** What a field says of itself: its name, the form's label, unit and hint. */
type FieldWords = Pick<FieldDef, "name" | "label" | "unit" | "hint">;
/** Where a field reaches beyond the form: its command-line flag, the importer's flag, the compare view's row. */
type FieldReach = Pick<FieldDef, "cli" | "importFlag" | "compareLabel">;

/**
 * A whole-number field's row: its words, its bounds and default as [min, max, default], its form group, then its
 * flags and compare row. The row is the one `field` would keep, its keys in the usual order.
 */
export function intField<const W extends FieldWords, const D extends number, const G extends FieldGroup, const R extends FieldReach = Record<never, never>>(
  words: W,
  [min, max, def]: readonly [number, number, D],
  group: G,
  reach?: R,
) {
  return field({ ...words, control: "int", min, max, default: def, group, ...reach } as W & {
    control: "int";
    min: number;
    max: number;
    default: D;
    group: G;
  } & R);
}

/** The fields every message workload has; `readers` and the workload's own fields go between them. */
export const writersField = intField({ name: "writers", label: "Writers", hint: "clients inserting messages, one connection each" }, [1, 1000, 4], "load", {
  cli: { flag: "writers", help: "writer connections" },
  importFlag: "writers",
  compareLabel: "Writers",
});

export const throttleField = intField(
  { name: "throttleWritesPerSec", label: "Write limit", unit: "msg/s", hint: "global; 0 = as fast as possible" },
  [0, 10_000_000, 0],
  "load",
  {
    cli: { flag: "throttle_writes", help: "global write limit in msg/s, 0 = unlimited (no start-up burst)" },
    importFlag: "throttle_writes",
    compareLabel: "Write throttle (msg/s)",
  },
);

export const payloadField = intField(
  { name: "payloadBytes", label: "Payload", unit: "bytes", hint: "random bytes per message" },
  [1, 10 * 1024 * 1024, 1024],
  "batches",
  {
    cli: { flag: "payload", help: "payload bytes per message" },
    importFlag: "payload",
    compareLabel: "Payload (bytes)",
  },
);

// Load runs this long before the measured window starts; excluded from the summary. (Not in the reference.)
export const warmupField = intField(
  { name: "warmupSeconds", label: "Warm-up", unit: "s", hint: "load before measuring; left out of the results" },
  [0, 3600, 5],
  "timing",
  {
    cli: { flag: "warmup", ours: true, duration: true, help: "load before the measured window, excluded from the summary (default 5s)" },
    compareLabel: "Warm-up excluded (s)",
  },
);

// The summary covers exactly this window.
export const durationField = intField(
  { name: "durationSeconds", label: "Measured duration", unit: "s", hint: "the window the results cover" },
  [1, 24 * 3600, 30],
  "timing",
  {
    cli: { flag: "duration", duration: true, help: "measured window: 30s, 2m, 1m30s or seconds" },
    importFlag: "duration",
    compareLabel: "Duration (s)",
  },
);

// A long run (issue 32, lib/workloads/long-run.ts): the measured window ends early, once the run's tables have had this
// many autovacuum runs (the telemetry's pg_stat_user_tables.autovacuum_count) and the minimum below has passed;
// durationSeconds is then its cap. Absent: the window runs its duration.
export const untilAutovacuumsField = field({
  name: "untilAutovacuums",
  label: "Until autovacuums",
  unit: "runs",
  hint: "end the window once autovacuum has run this often on the run's tables (the duration is then the cap); blank: run the whole duration",
  control: "int",
  min: 1,
  max: 1000,
  group: "timing",
  cli: {
    flag: "until-autovacuums",
    ours: true,
    help: "end the measured window once autovacuum has run N times on the run's tables and --min-duration has passed; -duration is then the cap",
  },
});

// The shortest a window with untilAutovacuums runs, however soon the autovacuums came (the long-run preset: 15 min).
export const minDurationField = field({
  name: "minDurationSeconds",
  label: "Minimum duration",
  unit: "s",
  hint: "with Until autovacuums: the window runs at least this long; blank: no minimum",
  control: "int",
  min: 1,
  max: 24 * 3600,
  group: "timing",
  cli: { flag: "min-duration", ours: true, duration: true, help: "with --until-autovacuums: the shortest measured window (e.g. 15m)" },
});

// Samples are always taken every second; this is only the CLI's live line.
export const reportIntervalField = intField(
  { name: "reportIntervalSeconds", label: "CLI report interval", unit: "s", hint: "the CLI's live line; the browser always gets every second" },
  [1, 3600, 5],
  "timing",
  { cli: { flag: "report", duration: true, help: "interval of the live line (default 5s)" }, importFlag: "report" },
);

// How many runner processes carry the run (issue #23): each owns a whole part of the load (runner/parts/).
// Stored as the number the run used: `auto` is resolved where the run is launched (this machine's cores).
export const processesField = intField(
  {
    name: "processes",
    label: "Runner processes",
    hint: "processes that share the load, each a whole part of it; more than 1 when one process cannot carry the rate",
  },
  [1, 64, 1],
  "load",
  {
    cli: {
      flag: "processes",
      ours: true,
      help: "runner processes that carry the run, each a whole part of the load: N, or auto (this machine's cores); default 1",
      omitDefault: true,
    },
    compareLabel: "Runner processes",
  },
);

// The synchronous_commit of every session the run opens on the target (lib/sync-commit.ts; given to each connection
// by runner/session-options.ts). Absent: the server's own. Not a row of compare's config table: the manifest records
// the value the sessions had, and compare's durability note reads it.
export const synchronousCommitField = field({
  name: "synchronousCommit",
  label: "Synchronous commit",
  hint: "the synchronous_commit of every session of the run; blank keeps the server's own setting",
  control: "select",
  group: "load",
  options: SYNC_COMMIT_LEVELS.map((value) => ({ value, label: value, description: `a commit waits for ${SYNC_COMMIT_WAITS[value]}` })),
  cli: {
    flag: "synchronous-commit",
    ours: true,
    help: "synchronous_commit of every session of the run: off, local, remote_write, on or remote_apply (default: the server's own). The ladder: --sync-commit off,on,… [--repeats N] runs the config at each level N times (default 3) in balanced order, then each level's latencies, throughput and standbys' lag",
  },
});

// Fault and bloat phases on the run's timeline (lib/phases/shape.ts; carried out by runner/phases/): one line of text,
// stored in its canonical spelling, so the form, the API, the CLI's repeated --phase and the reproducing command all
// carry it as they carry any text. Whether a phase fits the run and the workload is lib/phases/fit.ts's (parseConfig).
export const phasesField = field({
  name: "phases",
  label: "Phases",
  hint: `faults and bloat on the run's timeline, from the load's start: ${PHASE_KINDS.join(", ")}; e.g. hold-xmin@10s+20s, pause-workers@40s+10s; blank: none`,
  control: "text",
  group: "timing",
  check: (v: string) => {
    const r = parsePhases(v);
    return "error" in r ? r.error : null;
  },
  canonical: (v: string) => {
    const r = parsePhases(v);
    return "phases" in r ? phasesText(r.phases) : v;
  },
  cli: {
    flag: "phase",
    ours: true,
    repeatable: true,
    help: `a fault or bloat phase on the run's timeline, KIND@START+LENGTH from the load's start (repeat the flag for more): ${PHASE_KINDS.map((k) => `${k} ${PHASE_DOES[k]}`).join("; ")}`,
  },
  compareLabel: "Phases",
});

/** Warm-up, measured window (and a long run's end: until autovacuums, its minimum), the CLI's report interval, the
 *  runner processes, the sessions' synchronous_commit and the run's phases: the fields every workload has. */
export const timingFields = [
  warmupField,
  durationField,
  untilAutovacuumsField,
  minDurationField,
  reportIntervalField,
  processesField,
  synchronousCommitField,
  phasesField,
];

/** The fields every message workload has besides its own: write limit, payload and timing. */
export const sharedFields = [throttleField, payloadField, ...timingFields];
/** The readers' back-off after an empty poll (lib/backoff.ts; runner/core/timing.ts Backoff sleeps it). */
export { BACKOFF_MODES, type BackoffMode };
export const BACKOFF_LABELS: Record<BackoffMode, { label: string; description: string }> = {
  "reference-effective": {
    label: "as the reference really sleeps",
    description:
      "the reference tool's sleeps as they really run on Linux: its 200 µs and 100 µs–2 ms sleeps take whole ~1.1 ms ticks, and its jitter's sign bug makes about half the pub/sub back-offs zero; puts the same polling load on the target as the reference",
  },
  nominal: {
    label: "nominal (as its code asks)",
    description:
      "what the reference's code asks for: 200 µs on average after an empty dequeue, a uniform 100 µs–2 ms after an empty claim (no sign bug); polls the target several times more often than the reference did",
  },
};

/**
 * The readers' back-off after an empty poll. Not in compare's config rows: a run's manifest records the back-off
 * it really slept (older runs slept the nominal one whatever their parsed config says), and compare shows that.
 */
export const backoffField = field({
  name: "backoff",
  label: "Empty-poll back-off",
  hint: "how long a reader sleeps after finding nothing",
  control: "select",
  default: "reference-effective",
  group: "load",
  options: BACKOFF_MODES.map((value) => ({ value, ...BACKOFF_LABELS[value] })),
  cli: {
    flag: "backoff",
    ours: true,
    help: "readers' back-off after an empty poll: reference-effective (default: the reference's real ~1.1 ms sleeps and its jitter's zero sleeps) or nominal (the 200 µs / 100 µs–2 ms its code asks for)",
  },
});

/** The fields of the form's "batches" and "timing" sections come after the workload's own load fields. */
export const byGroup = <const F extends FieldDef>(fields: readonly F[]): F[] =>
  (["load", "batches", "timing"] as const).flatMap((g) => fields.filter((f) => f.group === g));

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
export { plural };

export function fmtBytes(n: number): string {
  if (n >= 1048576) return `${+(n / 1048576).toFixed(1)} MiB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

/** The describe() parts every message workload ends with: payload when not 1 KiB, limit, window, back-off when nominal. */
export function sharedParts(c: { payloadBytes: number; throttleWritesPerSec: number; durationSeconds: number; backoff?: BackoffMode }): string[] {
  const parts: string[] = [];
  if (c.payloadBytes !== 1024) parts.push(`${fmtBytes(c.payloadBytes)} payload`);
  parts.push(
    c.throttleWritesPerSec ? `${c.throttleWritesPerSec.toLocaleString("en-US")} msg/s limit` : "unthrottled",
    `${c.durationSeconds.toLocaleString("en-US")} s measured`,
  );
  // Named only when not the default (the reference's effective back-off): it changes the load polling puts on the target.
  if (c.backoff === "nominal") parts.push("nominal back-off");
  return parts;
}

/** The write limit as the knob a ceiling search raises (the rate throttlePacing paces at). */
export const throttleKnob = (): RateKnob => ({
  fields: ["throttleWritesPerSec"],
  set: (c, perSecond) => ({ ...c, throttleWritesPerSec: perSecond }),
});

/** Pacing of a workload whose writes go through the engine's throttle (`throttleWritesPerSec`; 0 = unthrottled). */
export function throttlePacing(c: { throttleWritesPerSec: number }, unit: string, operation = "write"): Pacing {
  const t = c.throttleWritesPerSec;
  return t > 0 ? { kind: "throttle", targetPerSecond: t, unit, operation, throttleable: true } : { kind: "unpaced", unit, operation, throttleable: true };
}

/**
 * The metric model of a message broker (pub/sub and queue): write, read and claim operations, writes also
 * timed from their schedule under a throttle, end-to-end delivery, and a backlog. The names are the keys the
 * runner stores (runner/core/stats.ts) and lib/measurement/metrics.ts documents what each latency times.
 */
export function brokerMetrics(o: {
  writeSample: string;
  readSample: string;
  readsPerGroup: boolean;
  backlogPlace: string;
  /** The read's time includes its claim's (the queue's dequeue transaction), and the flag of the claim's batch. */
  readIncludesClaim: boolean;
  batchFlag?: string;
}): MetricModel {
  return {
    consumer: { claim: "claim", read: "read", readIncludesClaim: o.readIncludesClaim, ...(o.batchFlag ? { batchFlag: o.batchFlag } : {}) },
    operations: [
      {
        name: "write",
        label: "write",
        unit: "msg",
        rate: true,
        latency: true,
        errors: true,
        latencySample: o.writeSample,
        chart: { title: "Write latency", hint: "per write transaction" },
        scheduled: { name: "writeScheduled", label: "write from schedule", writerLag: { name: "writerLag", label: "writer behind its share" } },
      },
      {
        name: "read",
        label: "read",
        unit: "msg",
        rate: true,
        latency: true,
        errors: true,
        latencySample: o.readSample,
        chart: { title: "Read latency", hint: "per non-empty read" },
        perGroup: o.readsPerGroup,
        counters: [{ key: "emptyPolls", column: "empty_polls", label: "empty polls" }],
      },
      { name: "claim", label: "claim", unit: "poll", rate: false, latency: true, errors: false, latencySample: "per poll" },
    ],
    delivery: {
      name: "e2e",
      label: "end-to-end",
      latencySample: "per message",
      chart: { title: "End-to-end latency", hint: "written → read, per message" },
      scheduled: { name: "e2eScheduled", label: "e2e from schedule" },
    },
    backlog: { label: "Backlog", unit: "msgs", what: "messages written but not yet read", place: o.backlogPlace },
  };
}
