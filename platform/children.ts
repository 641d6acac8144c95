// Child processes of `npm start` (web app, runner): started with an IPC channel so that they exit when
// the parent goes away, even if it was SIGKILLed (they listen for "disconnect").
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { PROJECT_ROOT } from "../lib/paths";

/** `detached`: in its own process group, so a Ctrl-C in the terminal reaches only the parent (which stops it in order). */
export function spawnTs(script: string, env: NodeJS.ProcessEnv, opts: { detached?: boolean } = {}): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", path.join(PROJECT_ROOT, script)], {
    cwd: PROJECT_ROOT,
    env,
    detached: opts.detached ?? false,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
}

/** Exits this process when its parent's IPC channel closes. No-op when started without IPC. */
export function exitWithParent(onExit: () => Promise<void> | void) {
  if (!process.send) return;
  process.on("disconnect", () => {
    // Bounded: with its parent gone nobody else would ever stop this process.
    const bound = new Promise((r) => setTimeout(r, 20_000).unref());
    Promise.race([Promise.resolve(onExit()), bound]).finally(() => process.exit(0));
  });
}

/** Sends SIGTERM, then SIGKILL after `graceMs`; resolves when the child has exited. */
export function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(t);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
