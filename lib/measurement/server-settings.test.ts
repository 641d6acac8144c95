import assert from "node:assert/strict";
import { test } from "node:test";
import { splitSettings } from "./server-settings";

test("settings that matter for performance come first, in the documented order; the rest by name", () => {
  const { performance, other } = splitSettings({
    port: "54900",
    lc_time: "C.UTF-8",
    TimeZone: "Etc/UTC",
    max_connections: "300",
    fsync: "off",
    synchronous_commit: "off",
    shared_buffers: "1GB",
    listen_addresses: "127.0.0.1",
  });
  assert.deepEqual(performance, [
    ["shared_buffers", "1GB"],
    ["synchronous_commit", "off"],
    ["fsync", "off"],
    ["max_connections", "300"],
  ]);
  assert.deepEqual(
    other.map(([k]) => k),
    ["lc_time", "listen_addresses", "port", "TimeZone"],
  );
  assert.deepEqual(splitSettings({}), { performance: [], other: [] });
});
