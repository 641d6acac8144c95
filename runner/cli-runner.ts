// The CLI as a runner of the control store, for --save (the bench's runs, runner/cli-run.ts; the ceiling's
// searches, runner/ceiling/cli.ts): the store migrated, this process registered as a heart-beating runner so the
// app's sweep does not mark what it stores live as interrupted, and unregistered at the end.
import os from "node:os";
import { within } from "./stop";

/** The longest the control store is waited for when closing --save's connection. */
const CLOSE_MS = 1500;

/** Registers this CLI as a runner of the control store at `controlUrl`; close() unregisters it and disconnects (bounded). */
export async function cliRunner(controlUrl: string) {
  const { migrate } = await import("../platform/migrate");
  await migrate(controlUrl);
  const { prisma } = await import("../lib/db");
  const runners = await import("../lib/status/runners");
  const db = prisma(controlUrl);
  const runnerId = `${os.hostname()}-cli-${process.pid}`;
  await runners.registerRunner(db, runnerId);
  // Heart-beat so the app's sweep does not mark this live run (or search) interrupted.
  const beat = setInterval(() => void runners.heartbeat(db, runnerId).catch(() => undefined), 2000);
  return {
    db,
    runnerId,
    async close() {
      clearInterval(beat);
      // Bounded: a frozen control store would hold these for ever (the app's sweep retires a silent runner).
      await within(
        db.runner
          .delete({ where: { id: runnerId } })
          .catch(() => undefined)
          .then(() => db.$disconnect()),
        CLOSE_MS,
      ).catch(() => undefined);
    },
  };
}
