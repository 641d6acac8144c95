// The Comparable of a published reference run (./build.ts): the author's headline figures, their server and settings.
import { referenceLabel, type Reference } from "../references/references";
import type { Comparable, Facts, Metric, Pcts } from "./comparable";
import { durabilityLevel } from "./notes";
import { configCellsOf } from "./rows";
import { readsPerGroup } from "../measurement/operations";
import { NONE, relevantSettings, settingsCell, TOOL_BACKOFF, TOOL_CLOCK, toolEffects, triplePoints } from "./build-parts";

export function fromReference(r: Reference): Comparable {
  const c = r.config;
  const h = r.headline;
  const full = { ...(r.postgres.fullSettingsList ?? {}), ...r.postgres.settingsChanged };
  const synchronousCommit = full.synchronous_commit ?? "on";
  const fsync = full.fsync ?? "on";
  const settings = relevantSettings(r.postgres.settingsChanged);
  const replication = r.replication ? `${r.nodes} nodes, synchronous_standby_names = ${r.replication.synchronousStandbyNames}` : null;
  const zones = [...new Set([r.server.az, ...r.replicas.map((x) => x.az)])];
  const server = `AWS ${r.server.instance}: ${r.server.vcpu} vCPU, ${r.server.ramGib} GiB, ${r.server.disk}`;
  const latency: Record<Metric, Pcts> = {
    write: { ...NONE, ...h.latencyMs.write },
    read: { ...NONE, ...h.latencyMs.read },
    e2e: { ...NONE, ...h.latencyMs.e2e },
  };
  const flags: string[] = [];
  if (r.workload === "queue")
    flags.push(
      // The same words for every queue reference, so the caveat is said once (its p99 is in the results table).
      "its author flags the queue e2e p95/p99 as inflated by a start-up backlog; see results/queue/IMPERFECTIONS.md.",
    );
  if (h.writeAsPublished || h.readAsPublished)
    flags.push(`throughput is published rounded (${[h.writeAsPublished, h.readAsPublished].filter(Boolean).join(", ")}).`);
  const facts: Facts = {
    serverCores: r.server.vcpu,
    sharedMachine: false,
    serverDescription: `${server}; separate ${r.client.instance} client`,
    postgresVersion: String(r.postgres.version),
    nodes: r.nodes,
    replication,
    placement: r.replication ? (zones.length > 1 ? `across zones (${zones.join(", ")})` : `in one zone (${zones[0]})`) : null,
    synchronousCommit,
    fsync,
    durability: durabilityLevel(synchronousCommit, fsync, !!r.replication),
    settings,
    durationSeconds: c.durationSeconds,
    throttleWritesPerSec: c.throttleWritesPerSec,
    payloadBytes: c.payloadBytes,
    warmupExcluded: false,
    rateDivisor: "configured duration",
    e2eClock: TOOL_CLOCK,
    backoff: "reference-effective",
    measuredThrough: null,
    effects: toolEffects(c),
    flags,
  };
  return {
    key: `ref:${r.id}`,
    kind: "reference",
    badge: "published",
    label: `Published: ${referenceLabel(r)}`,
    href: `/references/${r.id}`,
    workload: r.workload,
    when: null,
    annotations: {},
    config: {
      ...configCellsOf(r.workload, c, c.runs),
      warmupSeconds: 0,
    },
    env: {
      numbers: `published (mean of ${c.runs} run${c.runs > 1 ? "s" : ""})`,
      server,
      serverCores: r.server.vcpu,
      client: `separate AWS ${r.client.instance} (${r.client.az}), the Go tool`,
      postgresVersion: String(r.postgres.version),
      topology: r.replication
        ? `${r.nodes} nodes: ${r.replicas.map((x) => `${x.name} ${x.role.split(" (")[0]} (${x.az})`).join(", ")}`
        : "no synchronous standby",
      synchronousCommit:
        r.replication || synchronousCommit === "on" ? synchronousCommit : `${synchronousCommit} (no standby: waits for the local flush, as "on")`,
      fsync,
      settings: settingsCell(settings),
      maxConnections: Number(full.max_connections ?? 100),
      rateDivisor: "configured duration (the tool's way)",
      e2eClock: TOOL_CLOCK,
      backoff: TOOL_BACKOFF,
    },
    facts,
    throughput: { writePerSec: h.writeMsgPerSec, writeMiBPerSec: h.writeMiBPerSec, readPerSec: h.readMsgPerSec, readMiBPerSec: h.readMiBPerSec },
    latency,
    distribution: {},
    points: { write: triplePoints(latency.write), read: triplePoints(latency.read), e2e: triplePoints(latency.e2e) },
    overTime: [],
    notes: [
      `Published by the author: ${h.aggregation}. Only p50, p95 and p99 are published.`,
      ...(readsPerGroup(r.workload) ? [`Read msg/s sums ${c.consumerGroups} consumer groups (${c.consumerGroups}× fan-out).`] : []),
    ],
  };
}
