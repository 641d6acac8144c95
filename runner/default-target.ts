// The target a headless tool (CLI, bench scripts) uses when none is given: TARGET_DATABASE_URL, else the
// embedded Postgres of DATA_DIR (shared with a running `npm start`, else started for the command).
import { defaultTargetName } from "../lib/default-target";
import { TARGET_DB, useEmbedded, type EmbeddedServer } from "../lib/embedded";
import { dataDir, readEnv } from "../lib/env";
import { describeUrl } from "../lib/pgurl";

export interface ResolvedTarget {
  url: string;
  label: string;
  /** Stops the embedded server if this process started it. */
  release(): Promise<void>;
  /** Set when the embedded server is used (the CLI also needs its control database for --save). */
  embedded?: EmbeddedServer & { owned: boolean };
}

export async function resolveTarget(explicit?: string, log: (l: string) => void = () => undefined): Promise<ResolvedTarget> {
  if (explicit) return { url: explicit, label: describeUrl(explicit), release: async () => undefined };
  const env = readEnv();
  if (env.TARGET_DATABASE_URL)
    return { url: env.TARGET_DATABASE_URL, label: defaultTargetName({ embedded: false, url: env.TARGET_DATABASE_URL }), release: async () => undefined };
  const embedded = await useEmbedded({ dataDir: dataDir(env), port: env.EMBEDDED_PG_PORT });
  if (embedded.owned) log(`embedded Postgres started for this command (DATA_DIR ${dataDir(env)}, port ${env.EMBEDDED_PG_PORT})`);
  const url = embedded.url(TARGET_DB);
  return { url, label: defaultTargetName({ embedded: true, url }), release: () => embedded.stop(), embedded };
}
