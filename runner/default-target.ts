// The target a headless tool (CLI, bench scripts) uses when none is given: TARGET_DATABASE_URL, else the
// embedded Postgres of DATA_DIR (shared with a running `npm start`, else started for the command).
import { defaultTargetName } from "../lib/targets/default-target";
import { TARGET_DB, useEmbedded, type EmbeddedServer } from "../platform/embedded";
import { dataDir, readEnv, type Env } from "../lib/env";
import { describeUrl } from "../lib/targets/pgurl";

export interface ResolvedTarget {
  url: string;
  label: string;
  /** Stops the embedded server if this process started it. */
  release(): Promise<void>;
  /** Set when the embedded server is used (the CLI also needs its control database for --save). */
  embedded?: EmbeddedServer & { owned: boolean };
}

/** Which embedded server a command uses: one it started (and stops), or a running start's (left running). */
export function embeddedNote(embedded: { owned: boolean; port: number }, env: Env): string {
  return embedded.owned
    ? `embedded Postgres started for this command (DATA_DIR ${dataDir(env)}, port ${embedded.port})`
    : `embedded Postgres already running (DATA_DIR ${dataDir(env)}, port ${embedded.port}): shared, left running`;
}

export async function resolveTarget(explicit?: string, log: (l: string) => void = () => undefined): Promise<ResolvedTarget> {
  if (explicit) return { url: explicit, label: describeUrl(explicit), release: async () => undefined };
  const env = readEnv();
  if (env.TARGET_DATABASE_URL)
    return { url: env.TARGET_DATABASE_URL, label: defaultTargetName({ embedded: false, url: env.TARGET_DATABASE_URL }), release: async () => undefined };
  const embedded = await useEmbedded({ dataDir: dataDir(env), port: env.EMBEDDED_PG_PORT });
  log(embeddedNote(embedded, env));
  const url = embedded.url(TARGET_DB);
  return { url, label: defaultTargetName({ embedded: true, url }), release: () => embedded.stop(), embedded };
}
