// The shape of the embedded replicated target (platform/replicated.ts), as a run's summary records it
// (manifest.cluster) and as the CLI's flags ask for it (--replicas, --replica-delay): browser-safe, no server code.
import { z } from "zod";
import { parseGoDuration } from "../duration";

/** Standbys of the embedded replicated target: 1 to this many (pg2 … pg9). */
export const MAX_REPLICAS = 8;
/** The longest delay the relay adds each way, in ms: beyond it a run measures the relay, not replication. */
export const MAX_REPLICA_DELAY_MS = 1000;

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
