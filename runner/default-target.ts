// The target a headless tool (CLI, bench scripts) uses when none is given: TARGET_DATABASE_URL, else the
// default target's embedded Postgres of DATA_DIR (DATA_DIR/target: shared with a running `npm start`, else
// started for the command); or, when standbys are asked, the embedded replicated target (DATA_DIR/replicated).
import { defaultTargetName } from "../lib/targets/default-target";
import { type Cluster, TARGET_DB, useCluster, type EmbeddedServer } from "../platform/embedded";
import { dataDir, readEnv, type Env } from "../lib/env";
import { describeUrl } from "../lib/targets/pgurl";
import { clusterLine, openReplicated, type UsedCluster } from "./replicated-target";

export interface ResolvedTarget {
  url: string;
  label: string;
  /** Stops the embedded server if this process started it. */
  release(): Promise<void>;
  /** Set when the default target's embedded server is used. */
  embedded?: EmbeddedServer & { owned: boolean };
  /** Set when the embedded replicated target is used (`replicas` asked). */
  replicated?: UsedCluster;
}

/** Which embedded server a command uses: one it started (and stops), or a running start's (left running). */
export function embeddedNote(embedded: { owned: boolean; port: number }, env: Env, which: Cluster = "target"): string {
  const whose = which === "target" ? "the default target's" : "the control store's";
  return embedded.owned
    ? `${whose} embedded Postgres started for this command (DATA_DIR ${dataDir(env)}, port ${embedded.port})`
    : `${whose} embedded Postgres already running (DATA_DIR ${dataDir(env)}, port ${embedded.port}): shared, left running`;
}

/**
 * `explicit` when given; else, with `replicated.replicas`, the embedded replicated target (runner/replicated-target.ts);
 * else TARGET_DATABASE_URL or the default target's embedded server.
 */
export async function resolveTarget(
  explicit?: string,
  log: (l: string) => void = () => undefined,
  replicated?: { replicas: number; replicaDelayMs?: number },
): Promise<ResolvedTarget> {
  if (!explicit && replicated) {
    const r = await openReplicated(replicated, readEnv());
    log(clusterLine(r.cluster));
    return { url: r.url, label: r.label, release: () => r.cluster.stop(), replicated: r.cluster };
  }
  if (explicit) return { url: explicit, label: describeUrl(explicit), release: async () => undefined };
  const env = readEnv();
  if (env.TARGET_DATABASE_URL)
    return { url: env.TARGET_DATABASE_URL, label: defaultTargetName({ embedded: false, url: env.TARGET_DATABASE_URL }), release: async () => undefined };
  const embedded = await useCluster(dataDir(env), "target", env.EMBEDDED_TARGET_PG_PORT);
  log(embeddedNote(embedded, env));
  const url = embedded.url(TARGET_DB);
  return { url, label: defaultTargetName({ embedded: true, url }), release: () => embedded.stop(), embedded };
}
