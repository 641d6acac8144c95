// Test helper: the runner's claim loop on a real control store and target of the test file's own, started before the
// file's tests and stopped (its databases dropped) after them, as the runner process runs it.
import { after, before } from "node:test";
import { prisma } from "../lib/db";
import { readEnv } from "../lib/env";
import { registerRunner } from "../lib/status/runners";
import { testControlStore, testDatabase } from "../lib/testing";
import { type RunnerLoop, startRunnerLoop } from "./main";

export interface RunnerLoopFixture {
  control: { url: string; drop: () => Promise<void> };
  target: { url: string; drop: () => Promise<void> };
  loop: RunnerLoop;
}

/** Registers before/after hooks; the fields are set once `before` has run. `label` names the databases. */
export function runnerLoopFixture(label: string, runnerId: string): RunnerLoopFixture {
  const f = {} as RunnerLoopFixture;
  before(async () => {
    f.control = await testControlStore(`${label}_control`);
    f.target = await testDatabase(`${label}_target`);
    const db = prisma(f.control.url);
    await registerRunner(db, runnerId);
    f.loop = startRunnerLoop(db, runnerId, readEnv({ ...process.env, DATABASE_URL: f.control.url, TARGET_DATABASE_URL: f.target.url }));
  });
  after(async () => {
    await f.loop.stop();
    await prisma().$disconnect();
    await f.control.drop();
    await f.target.drop();
  });
  return f;
}
