// Every workload declares how a run is paced (definition.pacing), and the engine, the run page, the reference
// warnings and compare read the declaration instead of guessing from the config's fields. That every registered
// workload's declaration is sound, and what the core's pacers make of it on a fake clock, is the conformance
// suite's (workloads/exercise/pacing.ts); here, the product's workloads against their fields.
import assert from "node:assert/strict";
import { test } from "node:test";
import { pacingOf, throttleFact, throttlePerSecond, type WorkloadConfig } from "../lib/workloads/config";
import { registerWorkload, workloadDefinition } from ".";
import type { Pacing } from "./types";

type Cfg = Record<string, number | string | boolean> & { kind: string };

/** What each built-in workload's config asks for, read from its fields here (not from the declaration). */
const ASKED: Record<string, (c: Cfg) => Pacing> = {
  pubsub: (c) => throttle(c, "msg", "write"),
  queue: (c) => throttle(c, "msg", "write"),
  "queued-workflows": (c) => throttle(c, "workflow", "write"),
  inserts: (c) => ({ kind: "open-loop", targetPerSecond: c.rate as number, unit: "row", operation: "write" }),
  workflows: (c) => ({ kind: "open-loop", targetPerSecond: c.rate as number, unit: "workflow", operation: "workflow" }),
  cache: (c) => requests(c, ["vus"]),
  search: (c) => requests(c, ["vus"]),
  notify: (c) => requests(c, ["vus"]),
  jobqueue: (c) => requests(c, ["producers", "consumers"]),
  mixed: (c) => requests(c, ["cacheVus", "searchVus", "notifyVus", "producers", "consumers"]),
};

function throttle(c: Cfg, unit: string, operation: string): Pacing {
  const t = c.throttleWritesPerSec as number;
  return t > 0 ? { kind: "throttle", targetPerSecond: t, unit, operation, throttleable: true } : { kind: "unpaced", unit, operation, throttleable: true };
}

function requests(c: Cfg, vuFields: string[]): Pacing {
  if (c.load === "rate") return { kind: "open-loop", targetPerSecond: c.rate as number, unit: "req", operation: "total" };
  const vus = vuFields.reduce((n, f) => n + (c[f] as number), 0);
  return { kind: "closed-loop", unit: "req", operation: "total", virtualUsers: vus, thinkMs: c.thinkMs as number };
}

const parse = (input: Record<string, unknown>) => {
  const def = workloadDefinition(input.kind as string);
  assert.ok(def, `no workload ${input.kind}`);
  return def.params.parse(input) as WorkloadConfig;
};

test("each built-in workload's presets: the declared pacing is what the config asks", () => {
  for (const [kind, asked] of Object.entries(ASKED)) {
    const def = workloadDefinition(kind);
    assert.ok(def, `${kind} is registered`);
    for (const preset of def.presets) {
      const c = def.params.parse(preset.config) as Cfg;
      assert.deepEqual(def.pacing(c), asked(c), `${def.kind}, preset ${preset.id}`);
    }
  }
});

test("the declaration in examples: a rate is an open loop, virtual users a closed one, a zero throttle none", () => {
  const inserts = pacingOf(parse({ kind: "inserts", rate: 200 }));
  assert.deepEqual(inserts, { kind: "open-loop", targetPerSecond: 200, unit: "row", operation: "write" });
  assert.deepEqual(pacingOf(parse({ kind: "cache", vus: 50, thinkMs: 20 })), {
    kind: "closed-loop",
    unit: "req",
    operation: "total",
    virtualUsers: 50,
    thinkMs: 20,
  });
  assert.deepEqual(pacingOf(parse({ kind: "cache", rate: 300 })), { kind: "open-loop", targetPerSecond: 300, unit: "req", operation: "total" });
  assert.equal(pacingOf(parse({ kind: "jobqueue", producers: 3, consumers: 4 })).virtualUsers, 7);
  assert.deepEqual(pacingOf(parse({ kind: "queued-workflows", throttleWritesPerSec: 800 })), {
    kind: "throttle",
    targetPerSecond: 800,
    unit: "workflow",
    operation: "write",
    throttleable: true,
  });
  // The engine's throttle and compare's fact follow: only a throttle-paced run has a throttle.
  assert.equal(throttlePerSecond(parse({ kind: "pubsub", throttleWritesPerSec: 5000 })), 5000);
  assert.equal(throttlePerSecond(parse({ kind: "pubsub", throttleWritesPerSec: 0 })), 0);
  assert.equal(throttlePerSecond(parse({ kind: "inserts", rate: 200 })), 0);
  assert.equal(throttleFact(parse({ kind: "queue", throttleWritesPerSec: 0 })), 0, "a throttleable workload run unthrottled");
  assert.equal(throttleFact(parse({ kind: "cache" })), null, "a workload without a throttle");
  assert.equal(throttleFact(parse({ kind: "inserts", rate: 200 })), null);
});

test("the declaration, not the config's field names, decides: a throttle field under an open loop is no throttle", () => {
  // A workload with pub/sub's fields (throttleWritesPerSec among them) that declares an open loop of its own.
  const pubsub = workloadDefinition("pubsub")!;
  const unregister = registerWorkload({
    ...pubsub,
    kind: "pubsub-open-loop",
    pacing: (c) => ({ kind: "open-loop", targetPerSecond: (c as { throttleWritesPerSec: number }).throttleWritesPerSec, unit: "msg", operation: "write" }),
  });
  try {
    const c = { ...parse({ kind: "pubsub", throttleWritesPerSec: 1000 }), kind: "pubsub-open-loop" } as unknown as WorkloadConfig;
    assert.equal(throttlePerSecond(c), 0);
    assert.equal(throttleFact(c), null);
    assert.equal(pacingOf(c).targetPerSecond, 1000);
  } finally {
    unregister();
  }
});
