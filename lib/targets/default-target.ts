// The default target (the database runs use when none is picked) as every tool names and reaches it. The app,
// the runner and `npm run bench --save` all store runs under the name given here, so one database has one
// name everywhere (its runs are listed and compared as one target, whichever tool made them), and the run page's
// reproducing command reaches the same database the run used.
import path from "node:path";
import { EnvSchema, readEnv } from "../env";
import { PROJECT_ROOT } from "../paths";
import { describeUrl, maskUrl } from "./pgurl";

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
  const defaults = EnvSchema.parse({});
  const out: Record<string, string> = {};
  // npm runs scripts in the project root, so a relative DATA_DIR means one under PROJECT_ROOT whatever the
  // shell's folder; the command names it absolutely (start.ts already passes it so).
  const dir = path.resolve(PROJECT_ROOT, env.DATA_DIR);
  if (dir !== path.resolve(PROJECT_ROOT, defaults.DATA_DIR)) out.DATA_DIR = dir;
  if (env.EMBEDDED_TARGET_PG_PORT !== defaults.EMBEDDED_TARGET_PG_PORT) out.EMBEDDED_TARGET_PG_PORT = String(env.EMBEDDED_TARGET_PG_PORT);
  return { env: out };
}
