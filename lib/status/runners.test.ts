// A runner records its cores when it registers: the New run form's "auto" runner processes are the cores of the
// runner that will take the run. Real control store.
import assert from "node:assert/strict";
import os from "node:os";
import { after, before, test } from "node:test";
import { prisma } from "../db";
import { testControlStore } from "../testing";
import { registerRunner, runnerCores } from "./runners";

let ctl: Awaited<ReturnType<typeof testControlStore>>;
before(async () => {
  ctl = await testControlStore("runners_ctl");
});
after(async () => {
  await prisma().$disconnect();
  await ctl.drop();
});

test("a registered runner's cores are recorded; runnerCores answers the live runner's, null when none is live", async () => {
  const db = prisma();
  assert.equal(await runnerCores(db), null, "no runner yet");
  await registerRunner(db, "cores-runner");
  const row = await db.runner.findUniqueOrThrow({ where: { id: "cores-runner" } });
  assert.equal(row.cores, os.availableParallelism());
  assert.equal(await runnerCores(db), os.availableParallelism());
  // A runner that stopped heart-beating takes no run: its cores say nothing.
  assert.equal(await runnerCores(db, new Date(Date.now() + 24 * 3600 * 1000)), null);
});
