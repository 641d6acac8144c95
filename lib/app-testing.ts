// The databases a test of the app's API or launch path needs: a migrated control store (DATABASE_URL) and a target
// the app treats as its embedded default (TARGET_DATABASE_URL), each the test file's own, made before its tests and
// dropped after them. Real Postgres (lib/testing.ts), never a mock.
import { after, before } from "node:test";
import { prisma } from "./db";
import { testControlStore, testDatabase } from "./testing";

export function appDatabases(label: string): { targetUrl: () => string } {
  let ctl: Awaited<ReturnType<typeof testControlStore>> | undefined;
  let target: Awaited<ReturnType<typeof testDatabase>> | undefined;
  before(async () => {
    ctl = await testControlStore(`${label}_ctl`);
    target = await testDatabase(`${label}_tgt`);
    process.env.TARGET_DATABASE_URL = target.url;
    process.env.TARGET_IS_EMBEDDED = "1";
  });
  after(async () => {
    await prisma().$disconnect();
    await ctl?.drop();
    await target?.drop();
  });
  return {
    targetUrl: () => {
      if (!target) throw new Error("appDatabases: the target exists only once the test file's before() has run");
      return target.url;
    },
  };
}
