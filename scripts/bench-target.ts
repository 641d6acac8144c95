// The target a benchmark script runs against: the one given (--target), or a private embedded Postgres (default
// settings) started in a temporary folder and removed afterwards, which then shares this machine's cores with the
// runner (its label says so, and each script prints it).
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describeUrl } from "../lib/targets/pgurl";
import { freePort } from "../lib/testing";
import { startEmbedded } from "../platform/embedded";

export interface BenchTarget {
  url: string;
  label: string;
  /** A private embedded Postgres this script started (it shares this machine's cores). */
  embedded: boolean;
  release: () => Promise<void>;
}

/** `given`, or a private embedded Postgres (its folder named for the script, `database` on it). */
export async function benchTarget(given: string | undefined, script: string, database = "postgres"): Promise<BenchTarget> {
  if (given) return { url: given, label: describeUrl(given), embedded: false, release: async () => undefined };
  const dir = mkdtempSync(path.join(os.tmpdir(), `pgbb-${script}-`));
  chmodSync(dir, 0o755); // the postgres user must enter it when running as root
  // Private to the script, never a control store: a restart-target phase (bench:phases) may restart it.
  const server = await startEmbedded({ dataDir: dir, port: await freePort(), role: "restartable" });
  const url = server.url(database);
  return {
    url,
    embedded: true,
    label: `a private embedded Postgres on this machine (${describeUrl(url)}, default settings), sharing its ${os.cpus().length} cores with the runner`,
    release: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
