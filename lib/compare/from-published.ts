// The Comparable of another study's published result (./build.ts): Yong, DBOS.
import { publishedConfig, publishedLabel, STUDIES, type PublishedResult } from "../references/published";
import { type Comparable, type DistPoint, type Facts, type KnownEffect, type Metric, type Pcts, itemRateKeys, rateKey } from "./comparable";
import { configCellsOf } from "./rows";
import { NONE, triplePoints, UNKNOWN_SERVER } from "./build-parts";

/** A name of a published figure as a row's: "p50" … "max" and "avg" (every one a study may print). */
const STATS = ["p50", "p95", "p99", "avg", "max"] as const;

/**
 * Another study's published result (Yong, DBOS) as an item: its rates by operation and the latencies it prints
 * (p50/p95/p99/avg/max where published, null elsewhere), labelled published, with how its latencies were timed
 * and its bottleneck beside the deltas they explain.
 */
export function fromPublished(p: PublishedResult): Comparable {
  const parsed = publishedConfig(p);
  const config = parsed.ok ? (parsed.config as Record<string, unknown>) : p.config;
  const throughput: Record<string, number | null> = {};
  for (const [op, v] of Object.entries(p.rates ?? {})) {
    Object.assign(throughput, { [rateKey(op, "items")]: v, [rateKey(op, "MiB")]: null });
  }
  const latency: Record<Metric, Pcts> = {};
  const points: Partial<Record<Metric, DistPoint[]>> = {};
  for (const [m, l] of Object.entries(p.latencyMs ?? {})) {
    latency[m] = { ...NONE };
    for (const k of STATS) if (l[k] !== undefined) latency[m][k] = l[k];
    points[m] = triplePoints(latency[m]);
  }
  const effects: KnownEffect[] = [];
  if (p.measuredThrough) effects.push({ rows: ["*.*"], text: `its latencies are ${p.measuredThrough}; ours are runner → Postgres, per operation` });
  if (p.bottleneck) effects.push({ rows: itemRateKeys(throughput), text: `its rate was capped by ${p.bottleneck} (as the study reports)` });
  const authorCaveats = p.caveats.filter((c) => c.by === "author").map((c) => c.text);
  const str = (k: string) => (typeof config[k] === "number" ? (config[k] as number) : null);
  const facts: Facts = {
    ...UNKNOWN_SERVER,
    serverDescription: p.server,
    postgresVersion: p.server.match(/PostgreSQL (\d+(?:\.\d+)?)/i)?.[1] ?? null,
    durationSeconds: p.durationSeconds ?? null,
    throttleWritesPerSec: str("throttleWritesPerSec"),
    payloadBytes: str("payloadBytes"),
    warmupExcluded: false,
    rateDivisor: "as published",
    e2eClock: null,
    backoff: null,
    measuredThrough: p.measuredThrough ?? null,
    effects,
    flags: authorCaveats,
  };
  return {
    key: `ref:${p.id}`,
    kind: "reference",
    badge: "published",
    label: `Published: ${publishedLabel(p)}`,
    href: `/references/${p.id}`,
    workload: p.config.kind as Comparable["workload"],
    when: null,
    annotations: {},
    config: configCellsOf(p.config.kind, config, null),
    env: {
      numbers: `published by ${STUDIES[p.study].title}`,
      server: p.server,
      serverCores: null,
      client: p.loadModel,
      postgresVersion: facts.postgresVersion,
      topology: null,
      synchronousCommit: null,
      fsync: null,
      settings: null,
      maxConnections: null,
      rateDivisor: "as published",
      e2eClock: null,
      backoff: null,
    },
    facts,
    throughput,
    latency,
    distribution: {},
    points,
    overTime: [],
    notes: [
      `Published by ${STUDIES[p.study].title} (${p.source}); the load: ${p.loadModel}.`,
      ...(p.measuredThrough ? [`Its latencies are ${p.measuredThrough}.`] : []),
      ...(p.bottleneck ? [`Bottleneck reported: ${p.bottleneck}.`] : []),
      ...(p.derived ?? []).map((d) => `Derived by us, not published: ${d}`),
      ...p.caveats.map((c) => `${c.by === "author" ? "Caveat by the author" : "Caveat found"}: ${c.text}`),
      ...(parsed.ok ? [] : [`Its config is shown as published: ${parsed.error}.`]),
    ],
  };
}
