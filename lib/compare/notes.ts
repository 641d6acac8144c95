// What makes a comparison unfair, so that no reader is fooled (hardware, settings, durability, run length, load
// model, how rates were computed, …), and the known effects on each item's figures shown beside the deltas.
import { workloadDefinition } from "../workloads/config";
import type { Comparable } from "./comparable";
import { configDiff } from "./rows";
import { comparedMetrics } from "./metrics";
import { perSecond } from "../words";

/** What an item's throttle counts: its workload's first declared rate's unit ("msg", "workflow"). */
const pacedUnit = (c: Comparable) => comparedMetrics([c.workload]).rates[0]?.unit ?? "item";

/**
 * What a commit waits for, from synchronous_commit, fsync and whether a synchronous standby exists:
 * remote_write/remote_apply without a standby wait for the local flush only, exactly as "on".
 */
export function durabilityLevel(synchronousCommit: string, fsync: string, syncStandby: boolean): string {
  if (fsync === "off") return "nothing (fsync=off)";
  if (synchronousCommit === "off") return "nothing (asynchronous commit)";
  if (!syncStandby || synchronousCommit === "local") return "local WAL flush";
  if (synchronousCommit === "remote_write") return "local WAL flush + standby write";
  if (synchronousCommit === "remote_apply") return "local WAL flush + standby apply";
  return "local WAL flush + standby flush";
}

export interface ContextNote {
  topic: string;
  severity: "warn" | "info";
  text: string;
  /** How much this caveat changes the reading: 1 most (NOTE_RANKS); the notes come sorted by it. */
  rank: number;
}

/**
 * The caveats in the order they change the reading, most first, each with why. A difference in what was measured
 * (the work, the quantity, the load's shape) makes the numbers mean different things; then where it ran (another
 * machine or durability moves every figure); then a result its own source flags (unverified, client-bound, an
 * author's caveat); then settings and method, which move some figures by a bounded amount; then what only explains
 * the sources. Ties keep the order they were found in, warnings before information.
 */
export const NOTE_RANKS: { topic: string; why: string }[] = [
  { topic: "workload", why: "different work: the numbers do not measure the same thing" },
  { topic: "kind", why: "the latencies time different paths" },
  { topic: "load model", why: "a closed and an open loop answer different questions" },
  { topic: "throttle", why: "capacity against latency at a fixed load" },
  { topic: "payload", why: "each message carries other bytes" },
  { topic: "hardware", why: "another machine moves every figure" },
  { topic: "cores", why: "more or shared cores move every figure" },
  { topic: "durability", why: "a commit waits for other things" },
  { topic: "replication", why: "a commit may wait for a replica" },
  { topic: "flaw", why: "a result its own source flags: unverified, client-bound, an author's caveat" },
  { topic: "postgres", why: "another version may plan and write differently" },
  { topic: "settings", why: "non-default settings move some figures" },
  { topic: "length", why: "a short run's tails have few samples" },
  { topic: "rates", why: "a rate divisor moves rates by a known few percent" },
  { topic: "backoff", why: "more empty polls at the same rate" },
  { topic: "config", why: "other client settings, listed in the config table" },
  { topic: "warmup", why: "the start-up is in one figure and not the other" },
  { topic: "clock", why: "end-to-end latency read by other clocks" },
  { topic: "source", why: "whose numbers they are, said once" },
  { topic: "unknown", why: "what a source does not publish" },
];
const rankOf = (topic: string) => {
  const i = NOTE_RANKS.findIndex((r) => r.topic === topic);
  return i < 0 ? NOTE_RANKS.length + 1 : i + 1;
};

/** How many caveats a reader sees before "N more" folds the rest (the page, the Markdown export). */
export const TOP_NOTES = 4;

const name = (c: Comparable) => c.label;
const distinct = <T>(xs: T[]) => [...new Set(xs)];
function listBy(items: Comparable[], f: (c: Comparable) => string | null): string {
  return items.map((c) => `${name(c)}: ${f(c) ?? "unknown"}`).join("; ");
}
function differ(items: Comparable[], f: (c: Comparable) => string | number | null): boolean {
  return (
    distinct(
      items
        .map(f)
        .filter((v) => v !== null)
        .map(String),
    ).length > 1
  );
}

type Add = (topic: string, severity: "warn" | "info", text: string) => void;

/**
 * What makes this comparison unfair, so that no reader is fooled: hardware, cores, Postgres version, settings,
 * durability, replication, run length, throttle, warm-up, how rates were computed, the e2e clock, the sources' own
 * flagged flaws, and what is unknown; ranked by NOTE_RANKS, most telling first.
 */
export function contextNotes(items: Comparable[]): ContextNote[] {
  const out: ContextNote[] = [];
  const add: Add = (topic, severity, text) => out.push({ topic, severity, text, rank: rankOf(topic) });
  if (!items.length) return out;
  sourceNotes(items, add);
  machineNotes(items, add);
  loadNotes(items, add);
  methodNotes(items, add);
  // Ranked, most telling first (Array.prototype.sort is stable: ties keep the order found).
  return out.sort((a, b) => a.rank - b.rank || (a.severity === b.severity ? 0 : a.severity === "warn" ? -1 : 1));
}

/** What kind of numbers are side by side: workloads, sources, what a latency times. */
function sourceNotes(items: Comparable[], add: Add) {
  const kinds = distinct(items.map((c) => c.workload));
  if (kinds.length > 1)
    add(
      "workload",
      "warn",
      `Mixes workloads: ${kinds
        .map((k) => {
          const d = workloadDefinition(k);
          return d ? `${d.title} (${d.description.replace(/\.$/, "")})` : k;
        })
        .join("; ")}. They do different work, so their numbers do not measure the same thing.`,
    );

  const badges = distinct(items.map((c) => c.badge));
  if (badges.includes("published") && badges.length > 1)
    add(
      "source",
      "info",
      `Published numbers are their authors', measured on their machines with their own tools; measured numbers are from this product on this server; imported ones are the reference tool's output. Each keeps its own semantics (see the notes under each, and the known effects beside the deltas).`,
    );

  // A latency timed through something else (an HTTP API, a load generator's VUs) is a different quantity.
  if (distinct(items.map((c) => c.facts.measuredThrough)).length > 1)
    add(
      "kind",
      "warn",
      `Latencies are not the same quantity: ${listBy(items, (c) => c.facts.measuredThrough ?? (c.kind === "run" ? "runner → Postgres, per operation (ours)" : "the reference tool → Postgres, per operation"))}.`,
    );
}

/** Where they ran: hardware, cores, Postgres, its settings, durability, replication. */
function machineNotes(items: Comparable[], add: Add) {
  // Hardware is compared only where it is known; where it is not, one note says so (never also "differs").
  const hwKnown = items.filter((c) => c.facts.serverDescription !== null);
  const hwUnknown = items.filter((c) => c.facts.serverDescription === null);
  if (differ(hwKnown, (c) => c.facts.serverDescription)) add("hardware", "warn", `Hardware differs. ${listBy(hwKnown, (c) => c.facts.serverDescription)}.`);
  if (differ(items, (c) => c.facts.serverCores))
    add(
      "cores",
      "warn",
      `Server cores differ: ${listBy(items, (c) => (c.facts.serverCores === null ? null : `${c.facts.serverCores}${c.facts.sharedMachine ? " (shared with the load generator)" : ""}`))}.`,
    );
  else if (items.some((c) => c.facts.sharedMachine) && items.some((c) => c.facts.sharedMachine === false))
    add(
      "cores",
      "warn",
      `Some results ran the load generator on the database's own machine, competing with Postgres for the same cores; the published runs used a separate client machine.`,
    );
  if (hwUnknown.length)
    add(
      "unknown",
      "info",
      hwUnknown.length === items.length
        ? `Hardware is unknown for ${items.length === 1 ? "it" : items.length === 2 ? "both" : `all ${items.length}`}: ${hwUnknown.map(name).join(", ")}, so whether it differs cannot be said.`
        : `Hardware is unknown for: ${hwUnknown.map(name).join(", ")}.`,
    );

  if (differ(items, (c) => c.facts.postgresVersion)) add("postgres", "warn", `Postgres versions differ: ${listBy(items, (c) => c.facts.postgresVersion)}.`);

  const settingsText = (c: Comparable) =>
    c.facts.settings === null
      ? null
      : Object.keys(c.facts.settings).length
        ? Object.entries(c.facts.settings)
            .map(([k, v]) => `${k}=${v}`)
            .join(", ")
        : "defaults";
  if (differ(items, settingsText))
    add(
      "settings",
      "warn",
      `Server settings differ. ${listBy(items, (c) => {
        const s = settingsText(c);
        return s && s.length > 160 ? `${s.slice(0, 157)}…` : s;
      })}.`,
    );

  if (differ(items, (c) => c.facts.durability))
    add(
      "durability",
      "warn",
      `Durability differs — a commit waits for: ${listBy(items, (c) => c.facts.durability)}. Waiting for less is cheaper, and without fsync nothing is durable.`,
    );
  else if (items.some((c) => c.facts.durability?.startsWith("nothing")))
    add(
      "durability",
      "warn",
      `These results ran without durable commits (${items.find((c) => c.facts.durability?.startsWith("nothing"))!.facts.durability}): not what a broker needs.`,
    );

  placementNote(items, add);
  if (differ(items, (c) => c.facts.replication ?? (c.facts.nodes === null ? null : "none")))
    add(
      "replication",
      "warn",
      `Replication differs: ${listBy(items, (c) => c.facts.replication ?? (c.facts.nodes === null ? null : "single node"))}. A synchronously replicated commit waits for a replica in another zone.`,
    );
}

/**
 * Replicated results whose nodes stood apart differently: the embedded replicated target's on one host against a
 * published run's across zones. The same shape, not the same network: a synchronous commit on one host waits for a
 * standby without a round trip between zones, and its nodes share the host's cores and disk.
 */
function placementNote(items: Comparable[], add: Add) {
  const placed = items.filter((c) => c.facts.placement);
  if (!differ(placed, (c) => c.facts.placement ?? null)) return;
  const sides = distinct(placed.map((c) => `${c.facts.nodes ?? "?"} nodes ${c.kind === "run" ? "here" : "there"}, ${c.facts.placement}`));
  add(
    "replication",
    "warn",
    `${sides.join(", vs ")}. A synchronous commit on one host waits for its standby without the round trip between zones, and the nodes share the host's cores and disk.`,
  );
}

/** What load they ran: length, throttle, load model, payload, other config, warm-up. */
function loadNotes(items: Comparable[], add: Add) {
  const durs = items.map((c) => c.facts.durationSeconds).filter((d): d is number => d !== null);
  if (durs.length > 1 && Math.max(...durs) >= 2 * Math.min(...durs))
    add(
      "length",
      "warn",
      `Run lengths differ: ${listBy(items, (c) => (c.facts.durationSeconds === null ? null : `${c.facts.durationSeconds} s`))}. Short runs see no checkpoint or autovacuum cycle and have few samples in their tails (p99.9, max).`,
    );
  else if (durs.some((d) => d < 30))
    add("length", "info", `A run shorter than 30 s has few samples in its tail percentiles and no checkpoint or autovacuum in its window.`);

  if (differ(items, (c) => c.facts.throttleWritesPerSec))
    add(
      "throttle",
      "warn",
      `Write throttles differ: ${listBy(items, (c) => (c.facts.throttleWritesPerSec === null ? null : c.facts.throttleWritesPerSec === 0 ? "unthrottled" : `${c.facts.throttleWritesPerSec.toLocaleString("en-US")} ${perSecond(pacedUnit(c))}`))}. An unthrottled run measures capacity; a throttled one, latency at a fixed load.`,
    );
  // Request workloads (workloads/yong) record their load model: virtual users waiting for each answer, or a timetable.
  const loadModel = (c: Comparable) => (c.config.load === "vus" ? "closed loop" : c.config.load === "rate" ? "open loop" : null);
  if (differ(items, loadModel))
    add(
      "load model",
      "warn",
      `Load models differ: ${listBy(items, (c) => (c.config.load === "rate" ? `open loop at ${c.config.rate} requests/s` : c.config.load === "vus" ? "closed loop of virtual users" : null))}. In a closed loop a slower target gets fewer requests (each virtual user waits for its answer), in an open loop the rate holds and latency grows: their rates and latencies do not measure the same thing.`,
    );
  if (differ(items, (c) => c.facts.payloadBytes))
    add("payload", "warn", `Payload sizes differ: ${listBy(items, (c) => (c.facts.payloadBytes === null ? null : `${c.facts.payloadBytes} B`))}.`);

  const cfgDiffs = configDiff(items).filter(
    (r) => r.differs && !["workload", "throttleWritesPerSec", "durationSeconds", "payloadBytes", "warmupSeconds", "runsAveraged"].includes(r.key),
  );
  if (cfgDiffs.length) add("config", "info", `Client configs differ in: ${cfgDiffs.map((r) => r.label.toLowerCase()).join(", ")} (see the config table).`);

  if (distinct(items.map((c) => c.facts.warmupExcluded)).length > 1)
    add(
      "warmup",
      "info",
      `Warm-up: ${items
        .filter((c) => c.facts.warmupExcluded)
        .map(name)
        .join(", ")} exclude a warm-up from their numbers; ${items
        .filter((c) => !c.facts.warmupExcluded)
        .map(name)
        .join(", ")} cover the whole run, start-up backlog and shutdown included.`,
    );
}

/** How their numbers were computed: rate divisors, clocks, back-off; the sources' own flaws; what is unknown. */
function methodNotes(items: Comparable[], add: Add) {
  // A different divisor moves a rate by a known amount in a known direction: a warning, with the effect
  // beside the rate rows it moves (Facts.effects).
  if (distinct(items.map((c) => c.facts.rateDivisor)).length > 1)
    add(
      "rates",
      "warn",
      `Rates are computed differently: ${listBy(items, (c) => c.facts.rateDivisor)}. The reference tool divides totals by the configured duration, whose clock starts before table setup (lowering its rates by the setup time ÷ the duration), and its throttle lets one extra second of writes out at start (raising a throttled run's rates by about 1 ÷ the duration in seconds); the rows they move say by how much.`,
    );
  if (differ(items, (c) => c.facts.e2eClock)) add("clock", "info", `End-to-end latency uses different clocks: ${listBy(items, (c) => c.facts.e2eClock)}.`);

  if (differ(items, (c) => c.facts.backoff))
    add(
      "backoff",
      "warn",
      `The readers' back-off after an empty poll differs: ${listBy(items, (c) => c.facts.backoff)}. The nominal back-off polls an idle queue or partition several times more often than the reference tool really did, so the target serves more empty polls (and, in pub/sub, commits more) at the same message rate.`,
    );

  // A flag several items carry (every queue reference's author caveat) is said once, naming them all.
  const flagged = new Map<string, string[]>();
  for (const c of items) for (const f of c.facts.flags) flagged.set(f, distinct([...(flagged.get(f) ?? []), name(c)]));
  for (const [f, names] of flagged) add("flaw", "warn", `${names.join(", ")}: ${f}`);

  if (items.some((c) => c.kind !== "run"))
    add(
      "unknown",
      "info",
      `"—" marks what a source does not publish: the reference tool prints only p50, p95 and p99 (no p99.9, no max), other studies print what their articles show, and imported results have no histograms.`,
    );
}
