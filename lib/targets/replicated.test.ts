// The embedded replicated target's settings, name and command, without a server: what the environment may set
// (and the words when it is wrong), the one name the app, the runner and the CLI store its runs under, the command
// that reaches it again, the preset that picks it, and the runner refusing a run queued for another shape.
import assert from "node:assert/strict";
import { test } from "node:test";
import { readEnv } from "../env";
import { replicatedHost } from "../../runner/replicated-host";
import { replicatedTargetForCli } from "./default-target";
import { replicatedPick, replicatedSettings } from "./replicated";
import { isReplicatedTargetName, replicatedTargetName } from "./replicated-shape";
import { syncNamesProblem } from "./sync-names";

const embedded = (more: Record<string, string> = {}) => readEnv({ TARGET_IS_EMBEDDED: "1", DATA_DIR: "/var/tmp/pgbb-x", ...more });

test("EMBEDDED_REPLICAS, EMBEDDED_SYNC_STANDBY_NAMES and EMBEDDED_REPLICA_DELAY are checked, each wrong value named", () => {
  assert.deepEqual(replicatedSettings(embedded()), {
    replicas: 2,
    synchronousStandbyNames: "FIRST 1 (pg2, pg3)",
    home: "/var/tmp/pgbb-x/replicated",
    name: "embedded replicated (pg1 + 2 standbys)",
  });
  assert.equal(replicatedSettings(embedded({ EMBEDDED_REPLICA_DELAY: "500us" }))?.replicaDelayMs, 0.5);
  assert.equal(replicatedSettings(embedded({ EMBEDDED_REPLICAS: "0" })), null, "0 offers none");
  assert.equal(replicatedSettings(readEnv({})), null, "nor does an external default");
  assert.throws(() => readEnv({ EMBEDDED_REPLICAS: "9" }), /EMBEDDED_REPLICAS must be at most 8 \(standbys pg2 … pg9\)/);
  assert.throws(() => readEnv({ EMBEDDED_REPLICAS: "two" }), /EMBEDDED_REPLICAS must be a number of standbys/);
  assert.throws(() => readEnv({ EMBEDDED_REPLICA_DELAY: "fast" }), /EMBEDDED_REPLICA_DELAY must be a delay each way with its unit, such as 0\.5ms/);
  assert.throws(
    () => readEnv({ EMBEDDED_SYNC_STANDBY_NAMES: "FIRST 1 (pg2, pg4)" }),
    /EMBEDDED_SYNC_STANDBY_NAMES 'FIRST 1 \(pg2, pg4\)' names pg4, but the standbys are pg2, pg3 \(EMBEDDED_REPLICAS=2\)/,
  );
  assert.throws(() => readEnv({ EMBEDDED_SYNC_STANDBY_NAMES: "ANY 3 (pg2, pg3)" }), /asks for 3 synchronous standby\(s\) among 2/);
  assert.equal(syncNamesProblem("ANY 1 (*)", 3), null);
  assert.equal(syncNamesProblem('2 (pg2, "PG3")', 2), null);
});

test("one name per shape, in the app, the runner and the CLI; the command that reaches the same cluster again", () => {
  assert.equal(replicatedTargetName({ replicas: 1 }), "embedded replicated (pg1 + 1 standby)");
  const shape = { replicas: 3, synchronousStandbyNames: "ANY 2 (pg2, pg3, pg4)", replicaDelayMs: 0.5 };
  assert.equal(replicatedTargetName(shape), "embedded replicated (pg1 + 3 standbys, +0.5 ms each way, ANY 2 (pg2, pg3, pg4))");
  assert.ok(isReplicatedTargetName(replicatedTargetName(shape)));
  assert.ok(!isReplicatedTargetName("embedded default") && !isReplicatedTargetName("embedded replicated staging"));
  assert.deepEqual(replicatedTargetForCli({ replicas: 2, synchronousStandbyNames: "FIRST 1 (pg2, pg3)" }, { DATA_DIR: "/var/tmp/pgbb-x" }), {
    env: { DATA_DIR: "/var/tmp/pgbb-x" },
    args: ["--replicas", "2"],
  });
  // Names other than the default go through the environment the CLI reads them from, with the count they are checked against.
  assert.deepEqual(replicatedTargetForCli(shape, {}), {
    env: { EMBEDDED_REPLICAS: "3", EMBEDDED_SYNC_STANDBY_NAMES: "ANY 2 (pg2, pg3, pg4)" },
    args: ["--replicas", "3", "--replica-delay", "0.5ms"],
  });
});

test("the three-node published scenarios pick it, saying why; single-node ones and an external default do not", () => {
  for (const id of ["pubsub-4vcpu-three-node-sync-replicated", "queue-4vcpu-three-node-sync-replicated"]) {
    const pick = replicatedPick(id, embedded());
    assert.equal(pick?.targetId, "replicated");
    assert.match(
      pick!.targetReason,
      /synchronous replication on 3 nodes across zones \(synchronous_standby_names = 'FIRST 1 \(pg2, pg3\)'\).*Here the 3 nodes share this one host/,
    );
  }
  assert.equal(replicatedPick("pubsub-4vcpu-single-node", embedded()), null);
  assert.equal(replicatedPick("pubsub-4vcpu-three-node-sync-replicated", readEnv({})), null);
});

test("the runner takes only runs stored under a replicated name, and refuses one queued for another shape, starting nothing", async () => {
  const host = replicatedHost(embedded({ EMBEDDED_REPLICAS: "1" }), () => undefined);
  assert.equal(await host.targetOf({ targetId: null, targetLabel: "embedded default" }), null);
  assert.equal(await host.targetOf({ targetId: "t_0123456789", targetLabel: "embedded replicated (pg1 + 1 standby)" }), null);
  await assert.rejects(
    host.targetOf({ targetId: null, targetLabel: "embedded replicated (pg1 + 2 standbys)" }),
    /queued for "embedded replicated \(pg1 \+ 2 standbys\)", but this runner's embedded replicated target is now "embedded replicated \(pg1 \+ 1 standby\)"/,
  );
  const external = replicatedHost(readEnv({}), () => undefined);
  await assert.rejects(external.targetOf({ targetId: null, targetLabel: "embedded replicated (pg1 + 2 standbys)" }), /which this runner does not offer/);
  assert.equal(host.url(), undefined);
});
