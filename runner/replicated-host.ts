// The runner's embedded replicated target (lib/targets/replicated.ts): started, or taken from a command that runs it
// (platform/replicated.ts useReplicated), by the first run or ceiling search whose target it is, kept for the
// runner's lifetime (the cluster restarts a node that dies unasked, with a note in this runner's log), and stopped
// when the runner stops (npm start's Ctrl-C). A cluster left by a runner that was killed is stopped by the next
// start (startReplicated).
import type { Env } from "../lib/env";
import { type ClusterShape, isReplicatedTargetName } from "../lib/targets/replicated-shape";
import { type ReplicatedSettings, replicatedSettings } from "../lib/targets/replicated";
import { TARGET_DB } from "../platform/embedded";
import { useReplicated } from "../platform/replicated";
import { clusterLine, clusterShape, type UsedCluster } from "./replicated-target";
import { CLUSTER_STOP_MS, within } from "./stop";

/** A run's target on the replicated cluster: its URL, its shape for the summary, and the notes of a start it caused. */
export interface ClusterTarget {
  url: string;
  shape: ClusterShape;
  /** What starting the cluster for this run did (the cluster's line, leftovers stopped, standbys made); empty once it runs. */
  startNotes: string[];
}

export interface ReplicatedHost {
  /** The cluster's target for a run stored under a replicated target's name (started first when needed), else null. */
  targetOf(row: { targetId: string | null; targetLabel: string }): Promise<ClusterTarget | null>;
  /** The primary's URL while this runner runs the cluster (its leftover run schemas are swept there too). */
  url(): string | undefined;
  /** Stops the cluster when this runner started it (bounded by CLUSTER_STOP_MS). */
  stop(): Promise<void>;
}

export function replicatedHost(env: Env, log: (line: string) => void): ReplicatedHost {
  const settings = replicatedSettings(env);
  let cluster: UsedCluster | undefined;
  const take = async (s: ReplicatedSettings): Promise<{ cluster: UsedCluster; started: boolean }> => {
    // One this runner started is kept; one another command runs is asked for again each time (it may have ended).
    if (cluster?.owned) return { cluster, started: false };
    cluster = await useReplicated({
      home: s.home,
      replicas: s.replicas,
      synchronousStandbyNames: s.synchronousStandbyNames,
      replicaDelayMs: s.replicaDelayMs,
      databases: [TARGET_DB],
      onNote: (line) => log(`the embedded replicated target: ${line}`),
    });
    return { cluster, started: cluster.owned };
  };
  return {
    async targetOf(row) {
      if (row.targetId || !isReplicatedTargetName(row.targetLabel)) return null;
      const s = checkedSettings(settings, row.targetLabel);
      const { cluster: c, started } = await take(s);
      const startNotes = started || !c.owned ? [clusterLine(c, "started for this run"), ...c.notes] : [];
      for (const n of startNotes) log(n);
      return { url: c.primary.url(TARGET_DB), shape: clusterShape(c), startNotes };
    },
    url: () => (cluster?.owned ? cluster.primary.url(TARGET_DB) : undefined),
    async stop() {
      const c = cluster;
      cluster = undefined;
      if (!c?.owned) return;
      log("stopping the embedded replicated target…");
      if (
        (await within(
          c.stop().then(() => true),
          CLUSTER_STOP_MS,
        )) === undefined
      )
        log(`the embedded replicated target did not stop within ${CLUSTER_STOP_MS / 1000} s; its nodes are told to stop as the runner exits`);
    },
  };
}

/** This runner's replicated target, when it is the one the run was stored under; else why the run cannot run. */
function checkedSettings(settings: ReplicatedSettings | null, label: string): ReplicatedSettings {
  if (!settings)
    throw new Error(
      `the run's target "${label}" is an embedded replicated target, which this runner does not offer: it needs npm start's embedded Postgres (no TARGET_DATABASE_URL) and EMBEDDED_REPLICAS above 0`,
    );
  if (label !== settings.name)
    throw new Error(
      `the run was queued for "${label}", but this runner's embedded replicated target is now "${settings.name}" (EMBEDDED_REPLICAS, EMBEDDED_SYNC_STANDBY_NAMES or EMBEDDED_REPLICA_DELAY changed): launch it again`,
    );
  return settings;
}
