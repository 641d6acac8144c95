import assert from "node:assert/strict";
import { test } from "node:test";
import path from "node:path";
import { shellQuote, toCliCommand } from "./cli-command";
import { defaultTargetForCli, defaultTargetName, EMBEDDED_TARGET_NAME } from "../targets/default-target";
import { PROJECT_ROOT } from "../paths";
import { presetById, WorkloadConfig } from "../workloads/config";

test("the published 4 vCPU pub/sub scenario gives the reference tool's flags plus --warmup", () => {
  const config = WorkloadConfig.parse(presetById("pubsub-4vcpu-single-node")!.config);
  assert.equal(
    toCliCommand(config),
    "npm run bench -- pubsub -writers 10 -readers 4 -consumer-groups 5 -partitions 4 -write-batch 100 -read-batch 200 -payload 1024 -duration 120s -throttle_writes 5000 -report 5s --warmup 5s",
  );
});

test("a queue config carries -tune-table-vacuum only when set, and a target is quoted", () => {
  const plain = WorkloadConfig.parse({ kind: "queue", writers: 2, readers: 3, durationSeconds: 10, warmupSeconds: 0 });
  assert.equal(toCliCommand(plain), "npm run bench -- queue -writers 2 -readers 3 -payload 1024 -duration 10s -throttle_writes 0 -report 5s --warmup 0s");
  const tuned = WorkloadConfig.parse({ ...plain, tuneTableVacuum: true });
  assert.match(
    toCliCommand(tuned, "postgresql://u:****@db.example:5432/app?sslmode=require"),
    / -tune-table-vacuum --warmup 0s --target 'postgresql:\/\/u:\*\*\*\*@db\.example:5432\/app\?sslmode=require'$/,
  );
});

test("shellQuote leaves plain words alone and escapes single quotes", () => {
  assert.equal(shellQuote("120s"), "120s");
  assert.equal(shellQuote("it's"), `'it'\\''s'`);
});

const queue = WorkloadConfig.parse({ kind: "queue", writers: 2, readers: 3, durationSeconds: 10, warmupSeconds: 0 });
const plainCommand = "npm run bench -- queue -writers 2 -readers 3 -payload 1024 -duration 10s -throttle_writes 0 -report 5s --warmup 0s";
const commandFor = (appEnv: Record<string, string>) => {
  const t = defaultTargetForCli(appEnv);
  return toCliCommand(queue, t.targetUrl, t.env);
};

test("the embedded default with the default data folder and port needs nothing before the command", () => {
  const url = "postgresql://postgres:s3cret@127.0.0.1:54329/pgbb_target";
  for (const DATA_DIR of [path.join(PROJECT_ROOT, ".data"), undefined])
    assert.equal(commandFor({ TARGET_IS_EMBEDDED: "1", TARGET_DATABASE_URL: url, EMBEDDED_PG_PORT: "54329", ...(DATA_DIR ? { DATA_DIR } : {}) }), plainCommand);
});

test("an app on another DATA_DIR or EMBEDDED_TARGET_PG_PORT gives a command that carries them (quoted), never the password", () => {
  const url = "postgresql://postgres:s3cret@127.0.0.1:54401/pgbb_target";
  assert.equal(
    commandFor({ TARGET_IS_EMBEDDED: "1", TARGET_DATABASE_URL: url, DATA_DIR: "/var/tmp/my data", EMBEDDED_TARGET_PG_PORT: "54401" }),
    `DATA_DIR='/var/tmp/my data' EMBEDDED_TARGET_PG_PORT=54401 ${plainCommand}`,
  );
  assert.equal(commandFor({ TARGET_IS_EMBEDDED: "1", TARGET_DATABASE_URL: url, DATA_DIR: "/srv/pgbb" }), `DATA_DIR=/srv/pgbb ${plainCommand}`);
  assert.equal(
    commandFor({ TARGET_IS_EMBEDDED: "1", TARGET_DATABASE_URL: url, EMBEDDED_TARGET_PG_PORT: "54401" }),
    `EMBEDDED_TARGET_PG_PORT=54401 ${plainCommand}`,
  );
  // The control store's port is not the target's: a command that only runs on the target does not need it.
  assert.equal(commandFor({ TARGET_IS_EMBEDDED: "1", TARGET_DATABASE_URL: url, EMBEDDED_PG_PORT: "54402" }), plainCommand);
  assert.doesNotMatch(commandFor({ TARGET_IS_EMBEDDED: "1", TARGET_DATABASE_URL: url, DATA_DIR: "/srv/pgbb" }), /s3cret/);
});

test("a default target from TARGET_DATABASE_URL is named by its masked URL, as a saved target is", () => {
  const command = commandFor({ TARGET_DATABASE_URL: "postgresql://app:s3cret@db.example:5432/bench" });
  assert.equal(command, `${plainCommand} --target 'postgresql://app:****@db.example:5432/bench'`);
});

test("one name for the default target: the embedded server is 'embedded default', another server its host:port/database", () => {
  assert.equal(EMBEDDED_TARGET_NAME, "embedded default");
  assert.equal(defaultTargetName({ embedded: true, url: "postgresql://postgres:x@127.0.0.1:54900/pgbb_target" }), EMBEDDED_TARGET_NAME);
  assert.equal(defaultTargetName({ embedded: false, url: "postgresql://app:x@db.example:5432/bench" }), "db.example:5432/bench");
});
