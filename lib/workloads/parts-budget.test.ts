// A run over several processes counts what every part holds: connections (one more per part) and memory (each part
// collects its own garbage). A run of one process counts as before.
import assert from "node:assert/strict";
import { test } from "node:test";
import { connectionsNeeded, ENGINE_CONNECTIONS, WorkloadConfig } from "./config";
import { clientMemoryBytes, GARBAGE_ALLOWANCE_BYTES } from "./memory";

const queue = (processes: number) => WorkloadConfig.parse({ kind: "queue", writers: 4, readers: 2, processes });

test("connections: the clients, the engine's, and one per part when the run has parts", () => {
  assert.equal(connectionsNeeded(queue(1)), 6 + ENGINE_CONNECTIONS);
  assert.equal(connectionsNeeded(queue(3)), 6 + ENGINE_CONNECTIONS + 3);
});

test("memory: each part's garbage allowance is counted", () => {
  assert.equal(clientMemoryBytes(queue(3)) - clientMemoryBytes(queue(1)), 2 * GARBAGE_ALLOWANCE_BYTES);
});
