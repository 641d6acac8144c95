// The runner process: heart-beats into the control store and executes queued runs.
// Started by `npm start` (scripts/start.ts); can also be started alone with `npm run runner`
// against any control store given by DATABASE_URL.
import { randomUUID } from "node:crypto";
import os from "node:os";
import { exitWithParent } from "../lib/children";
import { prisma } from "../lib/db";
import { readEnv } from "../lib/env";
import { heartbeat, registerRunner } from "../lib/runners";

async function main() {
  const env = readEnv();
  const db = prisma();
  const id = `${os.hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  await registerRunner(db, id);
  const timer = setInterval(() => {
    heartbeat(db, id).catch((err) => console.error(`runner: heartbeat failed: ${(err as Error).message}`));
  }, env.RUNNER_HEARTBEAT_MS);

  const stop = async () => {
    clearInterval(timer);
    await db.runner.delete({ where: { id } }).catch(() => undefined);
    await db.$disconnect();
  };
  exitWithParent(stop);
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => void stop().finally(() => process.exit(0)));
}

main().catch((err) => {
  console.error(`runner: ${(err as Error).message}`);
  process.exit(1);
});
