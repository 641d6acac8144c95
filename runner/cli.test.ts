// The CLI as a user runs it: a real process, real exit codes, a real target database.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import pg from "pg";
import { toCliCommand } from "../lib/runs/cli-command";
import { prisma } from "../lib/db";
import { defaultTargetForCli, defaultTargetName } from "../lib/targets/default-target";
import { CONTROL_DB, startCluster, TARGET_DB } from "../platform/embedded";
import { PROJECT_ROOT } from "../lib/paths";
import { RunSummary } from "../lib/measurement/summary";
import { freePort, testControlStore, testDatabase } from "../lib/testing";
import { WorkloadConfig } from "../lib/workloads/config";
import { throughputOf } from "../lib/measurement/operations";
import { runCli } from "./cli-testing";

let target: { url: string; drop: () => Promise<void> };
let control: { url: string; drop: () => Promise<void> };
let dir: string;

before(async () => {
  target = await testDatabase("cli_target");
  control = await testControlStore("cli_control");
  dir = mkdtempSync(path.join(os.tmpdir(), "pgbb-cli-"));
});
after(async () => {
  await prisma().$disconnect();
  await target.drop();
  await control.drop();
  rmSync(dir, { recursive: true, force: true });
});

// No embedded fallback in tests: a test must never start a server on the default data folder.
const bench = (args: string[], env: Record<string, string> = {}) => runCli(args, dir, env);

test("bad flags exit 2 with a message naming the flag", async () => {
  const r = await bench(["pubsub", "-readers", "3", "-partitions", "4"]);
  assert.equal(r.code, 2);
  assert.match(r.err, /^bench: invalid pubsub settings: -readers: Readers per group \(3\) must equal Partitions \(4\)/);
  const u = await bench(["pubsub", "--writers", "x"]);
  assert.equal(u.code, 2);
  assert.match(u.err, /-writers: Writers must be a whole number, not "x"/);
});

test("a run over the memory budget exits 2 before connecting, naming the flags to lower", async () => {
  // The target does not exist: a refusal that connected first would say so instead.
  const r = await bench(
    [
      "pubsub",
      "-writers",
      "1",
      "-write-batch",
      "50",
      "-payload",
      String(10 * 1048576),
      "-partitions",
      "1",
      "-read-batch",
      "1",
      "--target",
      "postgresql://u@127.0.0.1:1/db",
    ],
    {
      RUNNER_MEMORY_BUDGET_MB: "512",
    },
  );
  assert.equal(r.code, 2);
  assert.match(r.err, /^bench: this run would hold about [\d.]+ GiB of message data in the runner \(1 writer × write batch 50 × 10 MiB payload × 4 /);
  assert.match(
    r.err,
    /over the runner's 512 MiB memory budget: lower -payload, -write-batch, -writers, -read-batch, -partitions or -consumer-groups, or raise RUNNER_MEMORY_BUDGET_MB \(now 512\)/,
  );
  assert.doesNotMatch(r.err + r.out, /127\.0\.0\.1:1|connect/);
});

test("an unreachable target exits 1 naming the target, password masked", async () => {
  const r = await bench(["queue", "-duration", "1s", "--target", "postgresql://me:hunter2@127.0.0.1:1/db"]);
  assert.equal(r.code, 1);
  assert.match(r.err, /bench: cannot connect to the target postgresql:\/\/me:\*\*\*\*@127\.0\.0\.1:1\/db/);
  assert.doesNotMatch(r.out + r.err, /hunter2/);
});

test("the published reference command line pasted as is: with its program's name, and with $HOST left unset", async () => {
  const published = readFileSync(path.join(PROJECT_ROOT, "fixtures/kozlovski/published-results.json"), "utf8");
  const command = /"command": "(\.\/pg_msg_bench[^"]*)"/.exec(published)![1];
  assert.match(command, /^\.\/pg_msg_bench .*--host=\$HOST /);
  const words = (host: string) => command.replace("$HOST", host).replace("--port=5432", "--port=1").split(/\s+/);
  // A host that refuses at once: getting as far as connecting shows the command line was read.
  for (const program of ["./pg_msg_bench", "/usr/local/bin/pg_msg_bench", ""]) {
    const argv = words("127.0.0.1").slice(1);
    const r = await bench(program ? [program, ...argv] : argv);
    assert.equal(r.code, 1, `${program}: ${r.err}`);
    assert.match(r.err, /cannot connect to the target .*127\.0\.0\.1:1\/benchmark/, program);
  }
  const unset = await bench(words("").slice(1));
  assert.equal(unset.code, 2);
  assert.match(unset.err, /^bench: --host is empty: typed as --host=\$VAR with the shell variable unset\?/);
});

test("more connections than the target allows exits 1 before running", async () => {
  const r = await bench(["queue", "-writers", "900", "-readers", "100", "-duration", "1s", "--target", target.url]);
  assert.equal(r.code, 1);
  assert.match(r.err, /needs 1002 connections .* raise max_connections/);
});

test("a short run prints live lines and a summary, writes --json and stores the run with --save, named and tagged", async () => {
  const file = path.join(dir, "summary.json");
  const r = await bench(
    [
      "pubsub",
      "-writers",
      "2",
      "-partitions",
      "2",
      "-consumer-groups",
      "2",
      "-write-batch",
      "10",
      "-throttle_writes",
      "1000",
      "-duration",
      "2s",
      "--warmup",
      "0s",
      "-report",
      "1s",
      "--target",
      target.url,
      "--json",
      file,
      "--save",
      ...["--name", "CLI smoke, 2 writers", "--tag", "pg18", "--tag", "smoke wal:on", "--notes", "from cli.test.ts"],
    ],
    { DATABASE_URL: control.url },
  );
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /\[\s+\d+s measuring\] W\s+[\d,]+\/s\s+R\s+[\d,]+\/s\s+backlog\s+\d+\s+write p50 [\d.,]+ m?s p99 [\d.,]+ m?s/);
  assert.match(r.out, /verification: OK/);
  assert.match(r.out, /end-to-end\s+[\d.]+/);
  // What limited it, with its evidence, and what the server did (the JSON carries the same).
  assert.match(r.out, /\nwhy this number: [a-z-]+(: |$)/m);
  assert.match(r.out, /telemetry's own cost: [\d.]+ statements\/s on the target/);
  // The labels head the summary and ride beside it in the JSON (RunSummary's parse drops them).
  assert.match(r.out, /^=== CLI smoke, 2 writers: pubsub on .* ===\ntags: pg18, smoke, wal:on\nnotes: from cli.test.ts$/m);
  const written = JSON.parse(readFileSync(file, "utf8"));
  assert.deepEqual(written.labels, { name: "CLI smoke, 2 writers", notes: "from cli.test.ts", tags: ["pg18", "smoke", "wal:on"] });
  const summary = RunSummary.parse(written);
  assert.ok(summary.telemetry?.verdict.category, "--json carries the verdict");
  assert.equal(summary.workload, "pubsub");
  assert.equal(summary.verification.ok, true);
  assert.ok(throughputOf(summary, "write")!.count > 0 && throughputOf(summary, "read")!.count > 0);
  const id = r.out.match(/stored as run (r_[0-9a-f]+)/)?.[1];
  assert.ok(id, "prints the stored run's id");
  const db = prisma(control.url);
  const run = await db.run.findUniqueOrThrow({ where: { id }, include: { samples: true } });
  assert.equal(run.status, "completed");
  assert.equal(run.source, "cli");
  assert.deepEqual([run.name, run.notes, run.tags], ["CLI smoke, 2 writers", "from cli.test.ts", ["pg18", "smoke", "wal:on"]]);
  assert.equal(run.phase, "done");
  assert.ok(run.samples.length >= 2);
  assert.deepEqual(RunSummary.parse(run.summary), summary);
});

/** Runs a command line as a user pastes it into a shell in the project: none of the app's variables set. */
function shell(command: string): Promise<{ code: number; out: string }> {
  const env = { ...process.env };
  for (const k of ["DATA_DIR", "EMBEDDED_PG_PORT", "EMBEDDED_TARGET_PG_PORT", "DATABASE_URL", "TARGET_DATABASE_URL", "TARGET_IS_EMBEDDED"]) delete env[k];
  return new Promise((resolve) => {
    const child = spawn("sh", ["-c", command], { cwd: PROJECT_ROOT, env });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", (code) => resolve({ code: code ?? 1, out }));
  });
}

/** An admin query on a server. */
async function queryOn<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(sql, params)).rows;
  } finally {
    await c.end();
  }
}

test("the CLI on a data folder of its own runs on the default target's own cluster, apart from the control store's", async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "pgbb-cli-two-"));
  chmodSync(dataDir, 0o755);
  const [controlPort, targetPort] = [await freePort(), await freePort()];
  try {
    const file = path.join(dataDir, "summary.json");
    const r = await shell(
      `DATA_DIR=${dataDir} EMBEDDED_PG_PORT=${controlPort} EMBEDDED_TARGET_PG_PORT=${targetPort} npm run bench -- queue -writers 1 -readers 1 -duration 1s --warmup 0s -throttle_writes 100 --save --json ${file}`,
    );
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, new RegExp(`the default target's embedded Postgres started for this command \\(DATA_DIR ${dataDir}, port ${targetPort}\\)`));
    assert.match(r.out, new RegExp(`the control store's embedded Postgres started for this command \\(DATA_DIR ${dataDir}, port ${controlPort}\\)`));
    // The run ran on the target's server: its port, as the manifest read it from the server itself.
    const summary = RunSummary.parse(JSON.parse(readFileSync(file, "utf8")));
    assert.equal(summary.manifest.serverSettings.port, String(targetPort));
    // Two clusters, two folders, each with its own database only.
    assert.ok(existsSync(path.join(dataDir, "pg", "PG_VERSION")), "the control store's cluster in DATA_DIR/pg");
    assert.ok(existsSync(path.join(dataDir, "target", "pg", "PG_VERSION")), "the target's cluster in DATA_DIR/target/pg");
    const control = await startCluster(dataDir, "control", controlPort);
    const target = await startCluster(dataDir, "target", targetPort);
    try {
      const dbs = async (url: string) => (await queryOn<{ d: string }>(url, "SELECT datname AS d FROM pg_database WHERE datname LIKE 'pgbb%'")).map((x) => x.d);
      assert.deepEqual(await dbs(control.url("postgres")), [CONTROL_DB]);
      assert.deepEqual(await dbs(target.url("postgres")), [TARGET_DB]);
      const dirOf = async (url: string) => (await queryOn<{ d: string }>(url, "SELECT current_setting('data_directory') AS d"))[0].d;
      assert.equal(await dirOf(control.url("postgres")), path.join(dataDir, "pg"));
      assert.equal(await dirOf(target.url("postgres")), path.join(dataDir, "target", "pg"));
      const id = r.out.match(/stored as run (r_[0-9a-f]+)/)?.[1];
      assert.deepEqual(await queryOn(control.url(CONTROL_DB), "SELECT status FROM run WHERE id = $1", [id]), [{ status: "completed" }]);
    } finally {
      await Promise.all([control.stop(), target.stop()]);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("the run page's command for the embedded default reaches the app's own target server of another DATA_DIR and port, and leaves it running", async () => {
  // The app's embedded servers, as `npm start` runs them with DATA_DIR and ports of its own (this process holds
  // the data folders, as the start does).
  const appDir = mkdtempSync(path.join(os.tmpdir(), "pgbb-cli-app-"));
  chmodSync(appDir, 0o755);
  const port = await freePort();
  const targetPort = await freePort();
  const [control, server] = await Promise.all([startCluster(appDir, "control", port), startCluster(appDir, "target", targetPort)]);
  try {
    // What the run page shows for a run on the default target, given the app's environment (scripts/start.ts).
    const appEnv = {
      TARGET_IS_EMBEDDED: "1",
      DATA_DIR: appDir,
      EMBEDDED_PG_PORT: String(port),
      EMBEDDED_TARGET_PG_PORT: String(targetPort),
      TARGET_DATABASE_URL: server.url(TARGET_DB),
    };
    const config = WorkloadConfig.parse({
      kind: "queue",
      writers: 1,
      readers: 1,
      durationSeconds: 1,
      warmupSeconds: 0,
      throttleWritesPerSec: 200,
      reportIntervalSeconds: 1,
    });
    const cli = defaultTargetForCli(appEnv);
    const command = toCliCommand(config, cli.targetUrl, cli.env);
    assert.ok(command.startsWith(`DATA_DIR=${appDir} EMBEDDED_TARGET_PG_PORT=${targetPort} npm run bench -- queue `), command);
    assert.doesNotMatch(command, new RegExp(readFileSync(path.join(appDir, "target", "pg-password"), "utf8").trim()), "no password in the command");

    const r = await shell(`${command} --save`);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, new RegExp(`embedded Postgres already running \\(DATA_DIR ${appDir}, port ${targetPort}\\): shared, left running`));
    assert.doesNotMatch(r.out, /started for this command/);
    const id = r.out.match(/stored as run (r_[0-9a-f]+)/)?.[1];
    assert.ok(id, r.out);

    // The run landed in the app's own control store, under the name the app gives the default target, and
    // the app's servers still run.
    const rows = await queryOn(control.url(CONTROL_DB), "SELECT status, source, target_label FROM run WHERE id = $1", [id]);
    assert.deepEqual(rows[0], { status: "completed", source: "cli", target_label: defaultTargetName({ embedded: true, url: appEnv.TARGET_DATABASE_URL }) });

    // The data folder alone is enough while the app runs: the port is read from its server.
    const portless = await shell(
      `DATA_DIR=${appDir} EMBEDDED_TARGET_PG_PORT=1 npm run bench -- queue -writers 1 -readers 1 -duration 1s --warmup 0s -throttle_writes 100`,
    );
    assert.equal(portless.code, 0, portless.out);
    assert.match(portless.out, new RegExp(`already running \\(DATA_DIR ${appDir}, port ${targetPort}\\)`));
    assert.match(portless.out, /=== queue on embedded default ===/);
  } finally {
    await Promise.all([control.stop(), server.stop()]);
    rmSync(appDir, { recursive: true, force: true });
  }
});
