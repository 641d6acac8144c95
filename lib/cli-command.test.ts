import assert from "node:assert/strict";
import { test } from "node:test";
import { shellQuote, toCliCommand } from "./cli-command";
import { presetById, WorkloadConfig } from "./workloads";

test("the published 4 vCPU pub/sub scenario gives the reference tool's flags plus --warmup", () => {
  const config = WorkloadConfig.parse(presetById("pubsub-4vcpu-single-node")!.config);
  assert.equal(
    toCliCommand(config),
    "npm run bench -- pubsub -writers 10 -readers 4 -consumer-groups 5 -partitions 4 -write-batch 100 -read-batch 200 -payload 1024 -duration 120s -throttle_writes 5000 -report 5s --warmup 5s",
  );
});

test("a queue config carries -tune-table-vacuum only when set, and a target is quoted", () => {
  const plain = WorkloadConfig.parse({ kind: "queue", writers: 2, readers: 3, durationSeconds: 10, warmupSeconds: 0 });
  assert.equal(
    toCliCommand(plain),
    "npm run bench -- queue -writers 2 -readers 3 -payload 1024 -duration 10s -throttle_writes 0 -report 5s --warmup 0s",
  );
  const tuned = WorkloadConfig.parse({ ...plain, tuneTableVacuum: true });
  assert.match(toCliCommand(tuned, "postgresql://u:****@db.example:5432/app?sslmode=require"), / -tune-table-vacuum --warmup 0s --target 'postgresql:\/\/u:\*\*\*\*@db\.example:5432\/app\?sslmode=require'$/);
});

test("shellQuote leaves plain words alone and escapes single quotes", () => {
  assert.equal(shellQuote("120s"), "120s");
  assert.equal(shellQuote("it's"), `'it'\\''s'`);
});
