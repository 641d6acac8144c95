// `npm start`: the whole product on one machine. Starts (or connects to) Postgres, applies the
// control-store migrations, builds the web app if needed, then runs the web app and the runner.
// The app's address answers from the first line printed: a "starting" page (scripts/starting-page.ts) says
// what is happening until the web app takes the port over. Ctrl-C stops all of them; nothing is left running.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { buildIsStale } from "../lib/build";
import { spawnTs, stopChild } from "../lib/children";
import { probePostgres } from "../lib/connect";
import { CONTROL_DB, startEmbedded, StartupError, TARGET_DB, type EmbeddedServer } from "../lib/embedded";
import { dataDir, readEnv } from "../lib/env";
import { migrate } from "../lib/migrate";
import { PROJECT_ROOT } from "../lib/paths";
import { describeUrl, maskUrl } from "../lib/pgurl";
import { buildStageReader, serveStartingPage, StartupProgress } from "./starting-page";

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

async function main() {
  let env;
  try {
    env = readEnv();
  } catch (err) {
    fail((err as Error).message);
  }
  const appUrl = `http://${env.HOST}:${env.PORT}`;
  const progress = new StartupProgress();
  // The starting page takes the port at once, so the URL printed next answers from that moment on.
  const starting = await serveStartingPage({ host: env.HOST, port: env.PORT, progress, appUrl }).catch((err: NodeJS.ErrnoException) =>
    fail(
      err.code === "EADDRINUSE"
        ? `PORT ${env.PORT} on ${env.HOST} is already in use (another \`npm start\`?). Stop it, or set PORT to a free port.`
        : `cannot listen on ${env.HOST}:${env.PORT}: ${err.message}`,
    ),
  );
  console.log(`pg-broker-bench: open ${appUrl}  (it shows start-up progress until the app is ready)`);
  const step = (label: string, line?: string) => {
    progress.begin(label);
    if (line) console.log(`  ${line}`);
  };

  let embedded: EmbeddedServer | undefined;
  const children: ChildProcess[] = [];
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await Promise.all(children.map((c) => stopChild(c)));
    await embedded?.stop().catch(() => undefined);
    process.exit(code);
  };
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));

  let controlUrl = env.DATABASE_URL;
  let targetUrl = env.TARGET_DATABASE_URL;
  try {
    if (!controlUrl || !targetUrl) {
      const dir = dataDir(env);
      step("starting the embedded Postgres", `embedded Postgres: data in ${dir}, port ${env.EMBEDDED_PG_PORT}`);
      embedded = await startEmbedded({ dataDir: dir, port: env.EMBEDDED_PG_PORT });
      for (const n of embedded.notes) console.log(`  ${n}`);
      controlUrl ??= embedded.url(CONTROL_DB);
      targetUrl ??= embedded.url(TARGET_DB);
    }
    // Both checks run at once so a bad URL is reported within the connect timeout.
    step("connecting to the databases");
    const probes = await Promise.allSettled([
      env.DATABASE_URL ? probePostgres("DATABASE_URL", controlUrl) : Promise.resolve(""),
      env.TARGET_DATABASE_URL ? probePostgres("TARGET_DATABASE_URL", targetUrl) : Promise.resolve(""),
    ]);
    const problems = probes.flatMap((p) => (p.status === "rejected" ? [(p.reason as Error).message] : []));
    if (problems.length) throw new Error(problems.join("\n              "));
    step("applying the control-store migrations");
    const applied = await migrate(controlUrl);
    if (applied.length) console.log(`  control store (${describeUrl(controlUrl)}): applied ${applied.join(", ")}`);
  } catch (err) {
    await embedded?.stop().catch(() => undefined);
    fail(err instanceof StartupError ? err.message : (err as Error).message);
  }

  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: controlUrl,
    TARGET_DATABASE_URL: targetUrl,
    TARGET_IS_EMBEDDED: env.TARGET_DATABASE_URL ? "" : "1",
    // Absolute, so the app names the very data folder the run page's CLI command must use (lib/default-target.ts).
    DATA_DIR: dataDir(env),
    EMBEDDED_PG_PORT: String(env.EMBEDDED_PG_PORT),
    PORT: String(env.PORT),
    HOST: env.HOST,
  };

  if (process.env.SKIP_BUILD !== "1" && buildIsStale()) {
    step("building the web app, usually a minute or two", "building the web app (first start or changed sources; usually a minute or two)…");
    const t0 = Date.now();
    try {
      await runBuild(childEnv, (line) => {
        progress.line(line);
        console.log(`    ${line}`);
      });
      console.log(`  built in ${Math.round((Date.now() - t0) / 1000)} s`);
    } catch (err) {
      await embedded?.stop().catch(() => undefined);
      fail((err as Error).message);
    }
  }

  step("starting the web app", "starting the web app…");
  const web = spawnTs("scripts/serve-next.ts", childEnv);
  const runner = spawnTs("runner/main.ts", childEnv);
  children.push(web, runner);
  for (const [name, child] of [["web app", web], ["runner", runner]] as const) {
    child.on("exit", (code, signal) => {
      if (stopping) return;
      console.error(`\nThe ${name} stopped unexpectedly (${signal ?? `exit code ${code}`}); shutting down.`);
      void shutdown(1);
    });
  }
  starting.handOver(web).then(
    () => console.log(`  ready: ${appUrl}   (Ctrl-C stops the app, the runner and the embedded Postgres)`),
    () => undefined, // the web app exited first: its exit handler above reports it and shuts down
  );
}

main().catch((err) => fail((err as Error).message));
