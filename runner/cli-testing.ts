// Test helper: `npm run bench` as a user runs it, a real process (runner/cli.ts) with its exit code, stdout and stderr.
import { spawn } from "node:child_process";
import path from "node:path";
import { PROJECT_ROOT } from "../lib/paths";

/**
 * Runs the CLI with `args`. `dataDir`: a folder of the test's own whose "no-embedded" subfolder is DATA_DIR, so the
 * CLI never starts a server on the default data folder; DATABASE_URL and TARGET_DATABASE_URL are blank unless `env`
 * sets them.
 */
export function runCli(args: string[], dataDir: string, env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "runner/cli.ts", ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATA_DIR: path.join(dataDir, "no-embedded"), DATABASE_URL: "", TARGET_DATABASE_URL: "", ...env },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("exit", (code) => resolve({ code: code ?? 1, out, err }));
  });
}
