// `npm run runner -- --part K` (a Kubernetes Indexed Job's pod, K = $JOB_COMPLETION_INDEX): a runner that takes part
// K of the next run that needs it, carries it (./agent.ts), waits for the run's outcome and says it: exit 0 when the
// run completed, 1 with the reason otherwise (also when no run opens part K within PARTS_WAIT_SECONDS). It never
// takes queued runs nor other parts.
import os from "node:os";
import type { PrismaClient } from "../../lib/db";
import { RUNNER_STALE_MS } from "../../lib/env";
import { carryPart } from "./agent";
import { claimPart } from "./remote-store";

export { partArg } from "./part-arg";

const POLL_MS = 300;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Takes part `k` of the next run that opens it, carries it and returns the run's outcome as an exit code. */
export async function carryOnePart(
  db: PrismaClient,
  runnerId: string,
  controlUrl: string,
  k: number,
  log: (line: string) => void,
  signal: AbortSignal,
  waitSeconds: number,
): Promise<{ code: number; message: string }> {
  log(`waiting for a run that needs part ${k} (at most ${waitSeconds} s, PARTS_WAIT_SECONDS)`);
  // Bounded as a run waits for its parts: a pod whose part never opens (another runner took it, or no run asked for
  // it) ends saying so, rather than keep its Job from completing for ever.
  const until = Date.now() + waitSeconds * 1000;
  let claimed = null;
  while (!claimed) {
    if (signal.aborted) return { code: 1, message: `stopped before any run needed part ${k}` };
    if (Date.now() > until)
      return {
        code: 1,
        message: `no run opened part ${k} within ${waitSeconds} s (PARTS_WAIT_SECONDS): launch the run with at least ${k + 1} processes and RUNNER_MAX_LOCAL_PARTS=0 on the runner that coordinates it (else it forks part 0 itself and other runners may take the rest), within that time of starting this one, or raise PARTS_WAIT_SECONDS`,
      };
    claimed = await claimPart(db, runnerId, os.hostname(), k).catch((err) => {
      log(`control store error: ${(err as Error).message}`);
      return null;
    });
    if (!claimed) await sleep(POLL_MS);
  }
  log(`took part ${k} of ${claimed.parts} of run ${claimed.runId}`);
  const carried = await carryPart(controlUrl, claimed, log, signal);
  // The run's outcome is its coordinator's to write: wait for it (bounded by that runner's heart-beat).
  while (true) {
    const run = await db.run.findUnique({ where: { id: claimed.runId }, select: { status: true, error: true, runnerId: true } });
    if (!run) return { code: 1, message: `run ${claimed.runId} was deleted` };
    if (run.status === "completed") return { code: 0, message: `run ${claimed.runId} completed` };
    if (run.status !== "running" && run.status !== "queued")
      return { code: 1, message: `run ${claimed.runId} ${run.status}: ${run.error ?? carried.error ?? "no reason given"}` };
    const coordinator = run.runnerId ? await db.runner.findUnique({ where: { id: run.runnerId } }) : null;
    if (!coordinator || Date.now() - coordinator.lastHeartbeat.getTime() > RUNNER_STALE_MS)
      return { code: 1, message: `run ${claimed.runId}'s coordinating runner ${run.runnerId} went silent before the run ended` };
    await sleep(POLL_MS);
  }
}
