// `npm test`: unit and integration tests (node's test runner, real embedded Postgres), then Playwright.
// One embedded Postgres serves every integration test file (each creates its own database in it);
// Playwright starts the real app with `npm start`'s code on a fresh data folder (playwright.config.ts).
//   npm test            everything
//   npm test -- unit    node tests only
//   npm test -- e2e     Playwright only (npm run test:e2e -- e2e/runs.spec.ts for one spec)
//   npm run test:unit -- runner/   only node test files whose path contains "runner/"
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PROJECT_ROOT } from "../lib/paths";
import { startTestServer } from "../lib/testing";

const TEST_DIRS = ["lib", "runner", "scripts", "app", "components"];

function findTests(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name === "generated" || e.name.startsWith(".")) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) findTests(p, out);
    else if (/\.test\.tsx?$/.test(e.name)) out.push(path.relative(PROJECT_ROOT, p));
  }
  return out;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: PROJECT_ROOT, env, stdio: "inherit" });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main() {
  const which = process.argv[2] ?? "all";
  let failed = false;
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

  if (which === "all" || which === "unit") {
    const files = TEST_DIRS.flatMap((d) => findTests(path.join(PROJECT_ROOT, d))).sort();
    const server = await startTestServer();
    try {
      console.log(`node tests: ${files.length} files, Postgres ${server.url("postgres").replace(/:[^:@/]+@/, ":****@")}`);
      const only = process.argv.slice(3);
    const selected = only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files;
    const code = await run(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", ...selected], {
        ...env,
        TEST_PG_URL: server.url("postgres"),
      });
      failed ||= code !== 0;
    } finally {
      await server.stop();
    }
  }

  if (which === "all" || which === "e2e") {
    const bin = path.join(PROJECT_ROOT, "node_modules", "@playwright", "test", "cli.js");
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "pgbb-e2e-"));
    chmodSync(dataDir, 0o755); // the embedded Postgres runs as the postgres user and must enter it
    try {
      const code = await run(process.execPath, [bin, "test", ...process.argv.slice(3)], { ...env, E2E_DATA_DIR: dataDir });
      failed ||= code !== 0;
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  console.log(failed ? "\nSome tests failed." : "\nAll tests passed.");
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
