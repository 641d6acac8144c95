// The CLI's embedded replicated target (`--replicas N [--replica-delay 0.5ms]`, no --target): the cluster of
// DATA_DIR/replicated (platform/replicated.ts), shared with a running start that owns it, else started for the
// command and stopped after it; its line for the terminal and its shape for the run's summary (manifest.cluster).
import { dataDir, type Env } from "../lib/env";
import { type ClusterShape, replicatedTargetName } from "../lib/targets/replicated-shape";
import { StartupError, TARGET_DB } from "../platform/embedded";
import { syncNamesProblem } from "../lib/targets/sync-names";
import { type ReplicatedCluster, replicatedHome, useReplicated } from "../platform/replicated";

export type UsedCluster = ReplicatedCluster & { owned: boolean };

/** The name runs on it are stored under (lib/targets/replicated-shape.ts replicatedTargetName), from the cluster itself. */
export function clusterTargetName(c: Pick<ReplicatedCluster, "standbys" | "delay" | "synchronousStandbyNames">): string {
  return replicatedTargetName({ replicas: c.standbys.length, replicaDelayMs: c.delay?.askedMs, synchronousStandbyNames: c.synchronousStandbyNames });
}

/** The cluster this command runs against, with its URL and name. */
export async function openReplicated(opts: { replicas: number; replicaDelayMs?: number }, env: Env) {
  // Names other than the default come from the environment, as the app's do (its run page's command sets them so).
  const names = env.EMBEDDED_SYNC_STANDBY_NAMES;
  const problem = names ? syncNamesProblem(names, opts.replicas, "--replicas") : null;
  if (problem) throw new StartupError(`EMBEDDED_SYNC_STANDBY_NAMES '${names}' ${problem}`);
  const cluster: UsedCluster = await useReplicated({
    home: replicatedHome(dataDir(env)),
    replicas: opts.replicas,
    replicaDelayMs: opts.replicaDelayMs,
    synchronousStandbyNames: names,
    databases: [TARGET_DB],
  });
  return { cluster, url: cluster.primary.url(TARGET_DB), label: clusterTargetName(cluster) };
}

/** "the embedded replicated target started for this command (…): primary pg1 on port …; standbys …; delay …". */
export function clusterLine(c: UsedCluster, owned = "started for this command"): string {
  const whose = c.owned ? owned : "already running: shared, left running";
  const standbys = c.standbys.map((s) => `${s.name} on port ${s.port}${s.relay ? ` (through a relay on ${s.relay.port})` : ""}`).join(", ");
  const d = c.delay;
  const delay = d
    ? `; delay asked ${d.askedMs} ms each way, measured ${d.addedOneWayMs} ms each way (round trip ${d.measuredRoundTripMs} ms through the relay, ${d.directRoundTripMs} ms straight)`
    : "";
  return `the embedded replicated target ${whose} (${c.home}): primary pg1 on port ${c.primary.port}; standbys ${standbys}; synchronous_standby_names '${c.synchronousStandbyNames}'${delay}`;
}

/** What a run's summary records of the cluster it ran against (manifest.cluster). */
export function clusterShape(c: ReplicatedCluster): ClusterShape {
  const d = c.delay;
  return {
    where: "embedded, one host",
    primary: "pg1",
    standbys: c.standbys.map((s) => s.name),
    synchronousStandbyNames: c.synchronousStandbyNames,
    ...(d
      ? { delay: { askedMs: d.askedMs, measuredRoundTripMs: d.measuredRoundTripMs, directRoundTripMs: d.directRoundTripMs, addedOneWayMs: d.addedOneWayMs } }
      : {}),
  };
}
