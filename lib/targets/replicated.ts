// The embedded replicated target as the app offers it (lib/targets/store.ts) and the runner finds it
// (runner/replicated-host.ts): a primary and EMBEDDED_REPLICAS standbys of the embedded binaries in DATA_DIR/replicated
// (platform/replicated.ts), offered beside the embedded default when `npm start` runs its own Postgres
// (TARGET_IS_EMBEDDED) and EMBEDDED_REPLICAS is not 0. It is virtual, as "default" is: its runs store no target id,
// only its name (lib/targets/replicated-shape.ts replicatedTargetName). The runner starts it with its first run on
// it; until then it has no address, and the app says so instead of probing it.
import { dataDir, type Env, readEnv } from "../env";
import { TARGET_DB } from "../../platform/databases";
import { holderOf, replicatedHome, shapeDifference } from "../../platform/replicated-layout";
import { referenceById } from "../references/references";
import { REPLICATED_TARGET_ID, type ReplicatedShape, replicatedTargetName } from "./replicated-shape";
import { defaultSyncNames, standbyNames } from "./sync-names";

/** The replicated target this app offers: its shape from the environment, its home and its name. */
export interface ReplicatedSettings extends ReplicatedShape {
  synchronousStandbyNames: string;
  home: string;
  name: string;
}

/** The replicated target of this environment, or null when none is offered (an external default, or EMBEDDED_REPLICAS=0). */
export function replicatedSettings(env: Env = readEnv()): ReplicatedSettings | null {
  if (!env.TARGET_IS_EMBEDDED || env.EMBEDDED_REPLICAS === 0) return null;
  const replicas = env.EMBEDDED_REPLICAS;
  const shape = {
    replicas,
    synchronousStandbyNames: env.EMBEDDED_SYNC_STANDBY_NAMES ?? defaultSyncNames(standbyNames(replicas)),
    ...(env.EMBEDDED_REPLICA_DELAY ? { replicaDelayMs: env.EMBEDDED_REPLICA_DELAY } : {}),
  };
  return { ...shape, home: replicatedHome(dataDir(env)), name: replicatedTargetName(shape) };
}

/** Whether it runs now, as its home says: not yet, starting, running (with its URL), or run by another command in another shape. */
export type ReplicatedState =
  | { state: "stopped" }
  | { state: "starting"; pid: number }
  | { state: "running"; pid: number; url: string; port: number }
  | { state: "other shape"; pid: number; differs: string };

export function replicatedState(s: ReplicatedSettings): ReplicatedState {
  const h = holderOf(s.home);
  if (h.state === "none") return { state: "stopped" };
  if (h.state === "starting") return h;
  const differs = shapeDifference(h.layout, s);
  if (differs) return { state: "other shape", pid: h.pid, differs };
  const port = h.layout.primaryPort;
  return { state: "running", pid: h.pid, port, url: `postgresql://postgres:${encodeURIComponent(h.password)}@127.0.0.1:${port}/${TARGET_DB}` };
}

/** What it is, in one plain sentence, and where it stands: for the form's target picker and GET /api/targets. */
export function replicatedAbout(s: ReplicatedSettings, st: ReplicatedState): string {
  const names = standbyNames(s.replicas);
  const delay = s.replicaDelayMs ? `, each standby's traffic delayed ${s.replicaDelayMs} ms each way by a relay` : "";
  const what = `A primary (pg1) and ${s.replicas} standby${s.replicas > 1 ? "s" : ""} (${names.join(", ")}) on this machine, synchronous_standby_names '${s.synchronousStandbyNames}'${delay}`;
  return `${what}; ${stateWords(st)}.`;
}

function stateWords(st: ReplicatedState): string {
  if (st.state === "stopped") return "starts with its first run";
  if (st.state === "starting") return `starting (pid ${st.pid})`;
  if (st.state === "running") return `running (primary on 127.0.0.1:${st.port})`;
  return `running in another shape for another command (pid ${st.pid}): ${st.differs} as set here`;
}

/**
 * Why a launch on it cannot be checked by connecting, or null when it can (it runs): it starts with the run (the
 * runner's preflight then checks it as any target), or it is starting, or another command runs it in another shape.
 */
export function replicatedPending(s: ReplicatedSettings, st: ReplicatedState): { note: string; refuse: boolean } | null {
  if (st.state === "running") return null;
  if (st.state === "other shape")
    return {
      refuse: true,
      note: `the embedded replicated cluster in ${s.home} is running for another command (pid ${st.pid}) with ${st.differs} as set here (EMBEDDED_REPLICAS, EMBEDDED_SYNC_STANDBY_NAMES, EMBEDDED_REPLICA_DELAY); launch once that command has ended`,
    };
  const when = st.state === "starting" ? "it is starting now" : "it starts with this run (the first start makes its standbys: some seconds)";
  return {
    refuse: false,
    note: `Not running yet: ${when}. The runner then checks its connections as it does for every run.`,
  };
}

/**
 * The target the New run form picks for a published scenario (`referenceId`), with why: the embedded replicated one
 * for a scenario that ran on several nodes with synchronous replication, when this app offers it; else null (the
 * default stays picked).
 */
export function replicatedPick(referenceId: string | undefined, env: Env = readEnv()): { targetId: string; targetReason: string } | null {
  const ref = referenceId ? referenceById(referenceId) : undefined;
  const s = replicatedSettings(env);
  if (!ref?.replication || ref.nodes < 2 || !s) return null;
  return {
    targetId: REPLICATED_TARGET_ID,
    targetReason: `Picked for this scenario: the published run committed through synchronous replication on ${ref.nodes} nodes across zones (synchronous_standby_names = '${ref.replication.synchronousStandbyNames}'), which the embedded default, a single node, would not pay. Here the ${s.replicas + 1} nodes share this one host.`,
  };
}
