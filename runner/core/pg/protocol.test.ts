import assert from "node:assert/strict";
import { test } from "node:test";
import { serialize } from "pg-protocol";
import { bindExecuteMessage, simpleQueryMessage } from "./protocol";

// What node-postgres writes for a prepared statement execution (pg/lib/query.js prepare()).
const pgBytes = (statement: string, values: string[]) =>
  Buffer.concat([
    serialize.bind({ portal: "", statement, values }),
    serialize.describe({ type: "P", name: "" }),
    serialize.execute({ portal: "" }),
    serialize.sync(),
  ]);

test("pre-built messages are byte for byte what node-postgres sends", () => {
  const cases: [string, string[]][] = [
    ["pgbb_claim", ["g0", "200", "3"]],
    ["pgbb_dequeue", []],
    ["pgbb_write_p1", ["100", "{\\\\x00ff,\\\\x0102}", "1"]],
    ["é_name", ["ünïcode ✓"]],
  ];
  for (const [name, values] of cases) assert.deepEqual(bindExecuteMessage(name, values).message, pgBytes(name, values), name);
  assert.deepEqual(simpleQueryMessage("BEGIN ISOLATION LEVEL READ COMMITTED"), serialize.query("BEGIN ISOLATION LEVEL READ COMMITTED"));
});

test("a placeholder parameter is filled in place at its offset", () => {
  const { message, offsets } = bindExecuteMessage("s", ["100", 6, "1"]);
  message.write("abcdef", offsets[1], "latin1");
  assert.deepEqual(message, pgBytes("s", ["100", "abcdef", "1"]));
});
