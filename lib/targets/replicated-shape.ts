// The shape of the embedded replicated target (platform/replicated.ts), as a run's summary records it
// (manifest.cluster) and as the CLI's flags ask for it (--replicas, --replica-delay): browser-safe, no server code.
import { z } from "zod";
import { parseGoDuration } from "../duration";
import { defaultSyncNames, standbyNames } from "./sync-names";

/** Standbys of the embedded replicated target: 1 to this many (pg2 … pg9). */
export const MAX_REPLICAS = 8;
/** The longest delay the relay adds each way, in ms: beyond it a run measures the relay, not replication. */
export const MAX_REPLICA_DELAY_MS = 1000;

/** The id of the embedded replicated target in the app (lib/targets/store.ts): virtual, as "default" is, never stored. */
export const REPLICATED_TARGET_ID = "replicated";

/** What a replicated target is asked to be: its standbys, their synchronous_standby_names, a delay each way. */
export interface ReplicatedShape {
  replicas: number;
  synchronousStandbyNames?: string;
  replicaDelayMs?: number;
}

/** What every replicated target's name starts with. */
const REPLICATED_TARGET_NAME = "embedded replicated";

/**
 * The name runs on it are stored under, in the app, the runner and the CLI alike: one name per shape, so runs of two
 * shapes are not compared as one target ("embedded replicated (pg1 + 2 standbys)"; a delay and names other than
 * the default are part of it).
 */
export function replicatedTargetName(s: ReplicatedShape): string {
  const delay = s.replicaDelayMs ? `, +${s.replicaDelayMs} ms each way` : "";
  const names = s.synchronousStandbyNames;
  const sync = names && names !== defaultSyncNames(standbyNames(s.replicas)) ? `, ${names}` : "";
  return `${REPLICATED_TARGET_NAME} (pg1 + ${s.replicas} standby${s.replicas > 1 ? "s" : ""}${delay}${sync})`;
}

/** Whether a target's name is one replicatedTargetName gives: a run stored under it ran on an embedded replicated target. */
export const isReplicatedTargetName = (name: string): boolean => /^embedded replicated \(pg1 \+ \d+ standbys?\b/.test(name);

export const ClusterShape = z.object({
  /** Where it ran: "embedded, one host" (a primary and its standbys on the runner's machine). */
  where: z.string(),
  primary: z.string(),
  /** The standbys' names, as synchronous_standby_names and pg_stat_replication name them. */
  standbys: z.array(z.string()),
  synchronousStandbyNames: z.string(),
  /** The delay a relay added to each standby's traffic, asked and measured (platform/relay.ts ReplicaDelay). */
  delay: z.object({ askedMs: z.number(), measuredRoundTripMs: z.number(), directRoundTripMs: z.number(), addedOneWayMs: z.number() }).optional(),
});
export type ClusterShape = z.infer<typeof ClusterShape>;

/** --replica-delay's value in ms: a duration with its unit ("0.5ms", "500us", "1ms") or plain ms ("0.5"); null if not one. */
export function parseReplicaDelay(raw: string): number | null {
  const s = raw.trim();
  const ms = /^\d+(\.\d+)?$/.test(s) ? Number(s) : parseGoDuration(s);
  return ms === null || ms < 0 || ms > MAX_REPLICA_DELAY_MS ? null : ms;
}

/** The shape a run's recorded cluster was asked in: what its reproducing command asks for again. */
export const shapeOfCluster = (c: ClusterShape): ReplicatedShape => ({
  replicas: c.standbys.length,
  synchronousStandbyNames: c.synchronousStandbyNames,
  ...(c.delay ? { replicaDelayMs: c.delay.askedMs } : {}),
});
