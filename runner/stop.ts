// Stopping within a stated time, whatever the target and the control store do: a server that stopped answering
// (kill -STOP, a frozen VM) never fails a call, so every wait on the way out is bounded, and past the stated time
// the process says what was left undone and quits.

/**
 * How long Ctrl-C of the CLI (`npm run bench`, `bench ceiling`) may take: the engine's cancel deadline (8 s,
 * runner/run-context.ts CANCEL_DEADLINE_MS), then a short wait for the control store (lib/runs/outbox.ts STOP_WAIT_MS, then closing).
 */
export const STOP_MS = 15_000;

/**
 * How long the runner's SIGINT/SIGTERM may take for its run, whatever the target and the control store do: the
 * engine's cancel deadline (8 s), then a short wait for the control store (lib/runs/outbox.ts). An embedded
 * replicated target it started (runner/replicated-host.ts) is stopped after that, within CLUSTER_STOP_MS more.
 */
export const RUNNER_STOP_MS = 12_000;
/** The longest the runner waits for its embedded replicated target to stop; past it, its exit hook signals the nodes. */
export const CLUSTER_STOP_MS = 8000;
/** The longest the runner takes to stop, whatever it holds: what npm start waits for before SIGKILL (scripts/start.ts). */
export const RUNNER_EXIT_MS = RUNNER_STOP_MS + CLUSTER_STOP_MS;

/** `p`, or undefined once `ms` have passed. */
export async function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Quits the process `ms` after now unless it has exited by then, printing `line()` (what was not done) first.
 * The timer does not keep the process alive.
 */
export function quitAfter(ms: number, line: () => string, code = 130) {
  setTimeout(() => {
    console.error(line());
    process.exit(code);
  }, ms).unref();
}
