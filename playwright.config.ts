// Browser tests run against the real app, started the way `npm start` starts it, on a fresh data folder
// and its own ports, so they never touch a user's data.
import { chmodSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { browserExecutable } from "./e2e/browser";

// Below the range the OS hands out as free ports (32768–60999 on Linux): `npm test` runs these specs beside node tests
// whose servers take such ports (lib/testing.ts freePort), and one of them must never hold the app's.
const PORT = Number(process.env.E2E_PORT ?? 3199);
const PG_PORT = Number(process.env.E2E_PG_PORT ?? 24399);
// The default target's own embedded Postgres (platform/embedded.ts); specs read it from the environment too.
const TARGET_PG_PORT = Number(process.env.E2E_TARGET_PG_PORT ?? PG_PORT + 1);
process.env.E2E_TARGET_PG_PORT = String(TARGET_PG_PORT);
// Playwright sets this on its first config load and passes it to its workers, so all share one folder.
if (!process.env.E2E_DATA_DIR) {
  process.env.E2E_DATA_DIR = mkdtempSync(path.join(os.tmpdir(), "pgbb-e2e-"));
  chmodSync(process.env.E2E_DATA_DIR, 0o755); // the postgres user must enter it
}

const executablePath = browserExecutable();

/** Spec files that count every stored run (a refused launch queues nothing): no other spec may store runs meanwhile. */
const COUNTS_RUNS = /\/(new-run|processes)\.spec\.ts$/;

/**
 * Spec files that watch a run while it is live (its samples, verdict, phase bands or search steps reaching the page
 * before it ends): `npm test` runs them, with COUNTS_RUNS, before the node tests start (E2E_STAGE=live), and the rest
 * beside them (E2E_STAGE=rest). Beside the node tests, a page on a CI machine's 2 busy cores drew its samples up to 20 s
 * late and saw runs live only once they had ended (three of these specs in one clean-clone CI run).
 */
const WATCHES_LIVE = /\/(runs|live-final|ceiling|telemetry|phases)\.spec\.ts$/;
const stage = process.env.E2E_STAGE || undefined;
if (stage !== undefined && stage !== "live" && stage !== "rest") throw new Error(`E2E_STAGE must be "live" or "rest" (or unset: every spec), not "${stage}"`);

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false, // a spec file's tests run in order, in one worker
  // Two spec files at a time: one worker left the CPU idle while a page loaded or a run's clock ran. Three were
  // slower on 2 cores in CI (4.2 min against 3.6 min: every stage is CPU-bound). The app's one runner still executes
  // runs one at a time (a spec's run may queue behind another file's, well within the timeouts). The specs that
  // check "nothing was queued" by counting every run run first, alone (COUNTS_RUNS).
  workers: Number(process.env.E2E_WORKERS) || 2,
  projects:
    stage === "rest"
      ? [{ name: "shares the app", testIgnore: [COUNTS_RUNS, WATCHES_LIVE] }]
      : [
          { name: "counts runs", testMatch: COUNTS_RUNS, workers: 1 },
          stage === "live"
            ? { name: "shares the app", testMatch: WATCHES_LIVE, dependencies: ["counts runs"] }
            : { name: "shares the app", testIgnore: COUNTS_RUNS, dependencies: ["counts runs"] },
        ],
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  // scripts/test-run.ts reads the JSON report to print one closing line over node and Playwright tests.
  reporter: process.env.PW_JSON_OUTPUT ? [["list"], ["json", { outputFile: process.env.PW_JSON_OUTPUT }]] : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
        "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1",
      ],
    },
  },
  webServer: {
    command: "node --import tsx scripts/start.ts",
    url: `http://127.0.0.1:${PORT}/api/health`,
    timeout: 300_000, // includes the production build on a fresh clone
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGINT", timeout: 15_000 },
    env: {
      PORT: String(PORT),
      EMBEDDED_PG_PORT: String(PG_PORT),
      EMBEDDED_TARGET_PG_PORT: String(TARGET_PG_PORT),
      DATA_DIR: process.env.E2E_DATA_DIR,
      NEXT_TELEMETRY_DISABLED: "1",
      RUNNER_HEARTBEAT_MS: "1000",
    },
  },
});
