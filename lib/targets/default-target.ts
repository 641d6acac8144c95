// The default target (the database runs use when none is picked) as every tool names and reaches it. The app,
// the runner and `npm run bench --save` all store runs under the name given here, so one database has one
// name everywhere (its runs are listed and compared as one target, whichever tool made them), and the run page's
// reproducing command reaches the same database the run used.
import path from "node:path";
import { EnvSchema, readEnv } from "../env";
import { PROJECT_ROOT } from "../paths";
import { describeUrl, maskUrl } from "./pgurl";
import type { ReplicatedShape } from "./replicated-shape";
import { defaultSyncNames, standbyNames } from "./sync-names";

/** The name of the default target's embedded Postgres (DATA_DIR/target), in the app, the runner and the CLI. */
export const EMBEDDED_TARGET_NAME = "embedded default";

/** "embedded default" for the embedded server of DATA_DIR, else host:port/database of TARGET_DATABASE_URL. */
export function defaultTargetName(target: { embedded: boolean; url: string }): string {
  return target.embedded ? EMBEDDED_TARGET_NAME : describeUrl(target.url);
}

/** How a command typed in this project reaches the default target: what to put before and after `npm run bench`. */
export interface CliTarget {
  /** Environment assignments written before the command (never a password). */
  env?: Record<string, string>;
  /** A --target URL, masked: the reader types the password. */
  targetUrl?: string;
  /** Set when the run's target is known only by this label (deleted since, or a CLI run's own --target). */
  unknownTarget?: string;
  /** Flags that pick the target, written after the workload's: the embedded replicated target's --replicas N. */
  args?: string[];
}

/**
 * For the app: how `npm run bench` pasted into a terminal in this project reaches the default target the app
 * uses. The default target's embedded server (DATA_DIR/target, a cluster of its own) is found by its data folder
 * (and started on its port when the app is not running), so the command carries DATA_DIR and
 * EMBEDDED_TARGET_PG_PORT whenever they differ from what a plain shell gets; a TARGET_DATABASE_URL default is
 * named by its masked URL, as saved targets are.
 */
export function defaultTargetForCli(source: Record<string, string | undefined> = process.env): CliTarget {
  if (source.TARGET_IS_EMBEDDED !== "1") return { targetUrl: maskUrl(source.TARGET_DATABASE_URL ?? "") };
  const env = readEnv(source);
  const out = dataDirAssignment(env.DATA_DIR);
  if (env.EMBEDDED_TARGET_PG_PORT !== EnvSchema.parse({}).EMBEDDED_TARGET_PG_PORT) out.EMBEDDED_TARGET_PG_PORT = String(env.EMBEDDED_TARGET_PG_PORT);
  return { env: out };
}

/** DATA_DIR=… when it is not the one a plain shell gets. */
function dataDirAssignment(dataDir: string): Record<string, string> {
  // npm runs scripts in the project root, so a relative DATA_DIR means one under PROJECT_ROOT whatever the
  // shell's folder; the command names it absolutely (start.ts already passes it so).
  const dir = path.resolve(PROJECT_ROOT, dataDir);
  return dir !== path.resolve(PROJECT_ROOT, EnvSchema.parse({}).DATA_DIR) ? { DATA_DIR: dir } : {};
}

/**
 * How `npm run bench` reaches an embedded replicated target of this shape (DATA_DIR/replicated, the CLI's
 * --replicas N [--replica-delay D]): the app's data folder when not the plain one, and synchronous_standby_names
 * other than the default through EMBEDDED_SYNC_STANDBY_NAMES (with EMBEDDED_REPLICAS, which it is checked against).
 */
export function replicatedTargetForCli(shape: ReplicatedShape, source: Record<string, string | undefined> = process.env): CliTarget {
  const env = dataDirAssignment(readEnv(source).DATA_DIR);
  const names = shape.synchronousStandbyNames;
  if (names && names !== defaultSyncNames(standbyNames(shape.replicas)))
    Object.assign(env, { EMBEDDED_REPLICAS: String(shape.replicas), EMBEDDED_SYNC_STANDBY_NAMES: names });
  const delay = shape.replicaDelayMs ? ["--replica-delay", `${shape.replicaDelayMs}ms`] : [];
  return { env, args: ["--replicas", String(shape.replicas), ...delay] };
}
