// An external control store (DATABASE_URL) that is down: every route answers with a status and a message that
// names the cause, never an empty 500 (the embedded one is supervised by npm start; this one is not).
import assert from "node:assert/strict";
import { test } from "node:test";
import { freePort } from "@/lib/testing";
import * as imports from "./imports/route";
import * as runOne from "./runs/[id]/route";
import * as runs from "./runs/route";
import * as targets from "./targets/route";

test("with the control store unreachable, routes answer 503 naming the cause, with the password masked", async () => {
  // A port nothing listens on: connection refused, as when the server is down.
  process.env.DATABASE_URL = `postgresql://app:s3cret-pw@127.0.0.1:${await freePort()}/control`;
  const answers = [
    await runs.GET(new Request("http://127.0.0.1:3000/api/runs")),
    await runOne.GET(new Request("http://127.0.0.1:3000/api/runs/r_0123456789ab"), { params: Promise.resolve({ id: "r_0123456789ab" }) }),
    await targets.GET(),
    await imports.GET(),
    // Deleting by filter and renaming need the store too: nothing is half done, the answer says why.
    await runs.DELETE(new Request("http://127.0.0.1:3000/api/runs?tag=old", { method: "DELETE" })),
    await runOne.PATCH(
      new Request("http://127.0.0.1:3000/api/runs/r_0123456789ab", { method: "PATCH", headers: { "content-type": "application/json" }, body: '{"name":"x"}' }),
      { params: Promise.resolve({ id: "r_0123456789ab" }) },
    ),
  ];
  for (const r of answers) {
    assert.equal(r.status, 503);
    const body = (await r.json()) as { error: string };
    assert.match(body.error, /^the control store is unreachable \(connection refused\); try again once it answers$/);
    assert.equal(r.headers.get("retry-after"), "5");
  }
});
