// `npm run bench:viewers -- [--viewers 200] [--rps 20] [--seconds 40] [--quiet-seconds 15] [--port 3211] [--pg-port 54419]`
// Many viewers of one live run, against the real app started as `npm start` starts it (scripts/start.ts: build if
// stale, web app, runner, embedded Postgres as the default target). The control store is a private embedded
// Postgres of this script's (passed as DATABASE_URL), so its transactions are counted alone (pg_stat_database).
//
// A long, modest pub/sub run is launched through the API; then four windows are measured:
//   1. the run alone;  2. the run + `--rps` requests/s to GET /api/runs;
//   3. the run + `--viewers` SSE viewers of it;  4. the run + the viewers + the requests (`--seconds` long).
// Printed: the API's p50/p95/max in windows 2 and 4, each viewer's longest gap between samples over windows 3 and 4
// (max and p99 over viewers), and the control store's transactions/s in each window. Goal (issue 20): 200 viewers
// + 20 requests/s keep the API's p95 under 300 ms and every viewer's longest gap under 2 s, and the viewers add a
// few transactions/s (one hub per run, lib/runs/live-hub.ts), not a number that grows with them.
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { PROJECT_ROOT } from "../lib/paths";
import { startTestServer } from "../lib/testing";
import { benchArgs } from "./bench-args";

const CONTROL_DB = "pgbb_control";

function intFlag(flags: Record<string, string>, name: string, dflt: number, min = 1): number {
  if (flags[name] === undefined) return dflt;
  const v = Number(flags[name]);
  if (!Number.isInteger(v) || v < min) throw new Error(`--${name} must be a whole number of at least ${min} (got "${flags[name]}")`);
  return v;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(values: number[], p: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const ms = (v: number) => (Number.isFinite(v) ? `${Math.round(v).toLocaleString("en-US")} ms` : "n/a");

/** One HTTP request to the app; resolves with the status and body (JSON when it parses). */
function request(base: string, method: string, url: string, body?: unknown, agent?: http.Agent): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      `${base}${url}`,
      {
        method,
        agent,
        headers: data ? { "content-type": "application/json", origin: base, "content-length": Buffer.byteLength(data) } : { origin: base },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (text += d));
        res.on("end", () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.setTimeout(60_000, () => req.destroy(new Error(`${method} ${url} took over 60 s`)));
    req.on("error", reject);
    req.end(data);
  });
}

/** The control store's committed + rolled-back transactions, read from another database so the read is not counted. */
async function controlXacts(admin: pg.Client): Promise<number> {
  const r = await admin.query<{ n: string }>("SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1", [CONTROL_DB]);
  return Number(r.rows[0].n);
}

/**
 * Waits until what happened before is in pg_stat_database: a backend that goes idle reports its counters up to
 * 10 s later (PGSTAT_IDLE_INTERVAL), which would count a burst (start-up, 200 connections) in the next window.
 */
const settle = () => sleep(11_000);

/** Transactions/s of the control store over `seconds` while `during` runs. */
async function xactRate(admin: pg.Client, seconds: number): Promise<number> {
  const x0 = await controlXacts(admin);
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const x1 = await controlXacts(admin);
  return (x1 - x0) / ((performance.now() - t0) / 1000);
}

/** Requests to GET /api/runs at a steady rate (open loop: a slow answer does not delay the next request). */
function apiLoad(base: string, rps: number) {
  // lifo: the busiest sockets are reused, so few sit idle until the server's keep-alive timeout closes them mid-request.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, scheduling: "lifo" });
  const latencies: number[] = [];
  let failures = 0;
  let firstFailure = "";
  let stopped = false;
  const inFlight = new Set<Promise<void>>();
  const loop = (async () => {
    const t0 = performance.now();
    for (let i = 0; !stopped; i++) {
      const due = t0 + (i * 1000) / rps;
      // Timers may fire early: wait until the clock says the request is due.
      while (performance.now() < due) await sleep(Math.max(1, due - performance.now()));
      if (stopped) break;
      const start = performance.now();
      const p = request(base, "GET", "/api/runs", undefined, agent)
        .then((r) => {
          latencies.push(performance.now() - start);
          if (r.status !== 200) {
            failures++;
            firstFailure ||= `${r.status} ${JSON.stringify(r.body).slice(0, 200)}`;
          }
        })
        .catch((err: Error) => {
          failures++;
          firstFailure ||= err.message;
        })
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      await Promise.all(inFlight);
      agent.destroy();
      return { latencies, failures, firstFailure };
    },
  };
}

interface ViewerStats {
  samples: number;
  dupes: number;
  problems: string[];
  ended: boolean;
  error: string | null;
  /** Longest silence between samples inside the measured window. */
  longestGapMs: number;
  lastSampleAt: number;
  lastSeq: number;
}

/** When each sample reached the viewers (first and last) and when the runner stamped it. */
type Arrivals = Map<number, { first: number; last: number; time: number }>;

/** An SSE viewer of the run, as EventSource would read it; it records when each sample arrives. */
function openViewer(base: string, runId: string, agent: http.Agent, arrivals: Arrivals) {
  const s: ViewerStats = { samples: 0, dupes: 0, problems: [], ended: false, error: null, longestGapMs: 0, lastSampleAt: 0, lastSeq: -1 };
  let measuring = false;
  const req = http.get(`${base}/api/runs/${encodeURIComponent(runId)}/events?after=-1`, { agent }, (res) => {
    if (res.statusCode !== 200) {
      s.error = `answered ${res.statusCode}`;
      res.resume();
      return;
    }
    res.setEncoding("utf8");
    let buf = "";
    res.on("data", (chunk: string) => {
      buf += chunk;
      let i: number;
      while ((i = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const event = block.match(/^event: (.*)$/m)?.[1];
        const id = block.match(/^id: (.*)$/m)?.[1];
        if (event === "sample") {
          const now = performance.now();
          const seq = Number(id);
          if (seq <= s.lastSeq) s.dupes++;
          s.lastSeq = seq;
          const a = arrivals.get(seq);
          if (a) a.last = now;
          else arrivals.set(seq, { first: now, last: now, time: Date.parse(block.match(/"time":"([^"]+)"/)?.[1] ?? "") });
          s.samples++;
          if (measuring) s.longestGapMs = Math.max(s.longestGapMs, now - s.lastSampleAt);
          s.lastSampleAt = now;
        } else if (event === "problem") s.problems.push(block.match(/^data: (.*)$/m)?.[1] ?? "");
        else if (event === "end") s.ended = true;
      }
    });
    res.on("end", () => (s.error ??= s.ended ? null : "the stream ended"));
  });
  req.on("error", (err) => (s.error ??= err.message));
  return {
    stats: s,
    /** From now on, silences count (the first samples replayed at connect do not). */
    startWindow(at: number) {
      measuring = true;
      s.lastSampleAt = Math.max(s.lastSampleAt, at);
    },
    endWindow(at: number) {
      if (measuring) s.longestGapMs = Math.max(s.longestGapMs, at - s.lastSampleAt);
      measuring = false;
    },
    close: () => req.destroy(),
  };
}

/** `npm start` with our ports, data folder and control store; its output is shown prefixed. */
function startApp(env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(PROJECT_ROOT, "scripts/start.ts")], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const show = (d: Buffer) => {
    for (const line of d.toString().split("\n")) if (line.trim()) console.log(`  [npm start] ${line}`);
  };
  child.stdout?.on("data", show);
  child.stderr?.on("data", show);
  return child;
}

async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const t0 = Date.now();
  let last = "";
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      last = (err as Error).message;
    }
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}${last ? ` (${last})` : ""}`);
    await sleep(500);
  }
}

async function main() {
  const flags = benchArgs(process.argv.slice(2), ["viewers", "rps", "seconds", "quiet-seconds", "port", "pg-port"]);
  const viewers = intFlag(flags, "viewers", 200);
  const rps = intFlag(flags, "rps", 20);
  const seconds = intFlag(flags, "seconds", 40, 5);
  const quiet = intFlag(flags, "quiet-seconds", 15, 5);
  const port = intFlag(flags, "port", 3211);
  const pgPort = intFlag(flags, "pg-port", 54419);
  const base = `http://127.0.0.1:${port}`;

  console.log(
    `bench:viewers: ${viewers} viewers + ${rps} requests/s to GET /api/runs, ${seconds} s, on ${os.cpus().length} cores (load average ${os.loadavg()[0].toFixed(1)})`,
  );
  const control = await startTestServer();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "pgbb-viewers-"));
  chmodSync(dataDir, 0o755); // the postgres user must enter it when running as root
  const admin = new pg.Client({ connectionString: control.url("postgres") });
  let app: ChildProcess | undefined;
  const open: ReturnType<typeof openViewer>[] = [];
  const arrivals: Arrivals = new Map();
  let runId = "";
  try {
    await admin.connect();
    // The embedded server makes pgbb_control itself (platform/embedded.ts); nothing else uses this server.
    const has = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [CONTROL_DB]);
    if (!has.rowCount) await admin.query(`CREATE DATABASE ${CONTROL_DB}`);
    app = startApp({
      ...process.env,
      PORT: String(port),
      EMBEDDED_PG_PORT: String(pgPort),
      DATA_DIR: dataDir,
      DATABASE_URL: control.url(CONTROL_DB),
      NEXT_TELEMETRY_DISABLED: "1",
    });
    const exited = new Promise<never>((_, reject) => app!.once("exit", (code) => reject(new Error(`npm start exited (${code}) before the benchmark ended`))));
    const ready = waitFor("the app and its runner (GET /api/health ok; a build can take minutes)", 15 * 60_000, async () => {
      const r = await request(base, "GET", "/api/health");
      return r.status === 200 && (r.body as { ok?: boolean }).ok ? true : undefined;
    });
    await Promise.race([ready, exited]);

    // A long, modest run: one writer at 100 msg/s, one partition, one consumer group; cancelled at the end.
    const config = {
      kind: "pubsub",
      writers: 1,
      partitions: 1,
      consumerGroups: 1,
      writeBatch: 10,
      readBatch: 100,
      throttleWritesPerSec: 100,
      warmupSeconds: 1,
      durationSeconds: 600,
    };
    const launched = await request(base, "POST", "/api/runs", { config, targetId: "default" });
    if (launched.status !== 201) throw new Error(`launching the run answered ${launched.status}: ${JSON.stringify(launched.body)}`);
    runId = (launched.body as { id: string }).id;
    await waitFor("the run to measure", 120_000, async () => {
      const r = await request(base, "GET", `/api/runs/${runId}`);
      const run = r.body as { status?: string; phase?: string; error?: string };
      if (run.status && !["queued", "running"].includes(run.status)) throw new Error(`the run ended: ${run.status} ${run.error ?? ""}`);
      return run.phase === "measuring" ? true : undefined;
    });
    console.log(`run ${runId} is measuring (pub/sub, 100 msg/s); measuring the control store…`);
    await settle();

    const alone = await xactRate(admin, quiet);
    console.log(`  window 1, the run alone: control store ${alone.toFixed(1)} transactions/s`);

    const api2 = apiLoad(base, rps);
    const withApi = await xactRate(admin, quiet);
    const apiOnly = await api2.stop();
    console.log(`  window 2, + ${rps} requests/s: control store ${withApi.toFixed(1)} transactions/s`);

    const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
    const t0 = performance.now();
    for (let i = 0; i < viewers; i++) open.push(openViewer(base, runId, agent, arrivals));
    await waitFor(`every viewer's first sample`, 120_000, async () => (open.every((v) => v.stats.samples > 0 || v.stats.error) ? true : undefined));
    console.log(`  ${viewers} viewers connected and replayed the run in ${ms(performance.now() - t0)}`);
    await settle(); // the connections' own reads (each request checks the run exists) are not the viewers' steady cost
    const start = performance.now();
    for (const v of open) v.startWindow(start);
    const viewersOnly = await xactRate(admin, quiet);
    console.log(`  window 3, the run + ${viewers} viewers: control store ${viewersOnly.toFixed(1)} transactions/s`);
    const api3 = apiLoad(base, rps);
    const withViewers = await xactRate(admin, seconds);
    const end = performance.now();
    for (const v of open) v.endWindow(end);
    const full = await api3.stop();

    const gaps = open.map((v) => v.stats.longestGapMs);
    const broken = open.filter((v) => v.stats.error || v.stats.problems.length || v.stats.dupes);
    const apiLine = (label: string, r: { latencies: number[]; failures: number; firstFailure: string }) =>
      `  ${label}: ${r.latencies.length} requests, p50 ${ms(percentile(r.latencies, 50))}, p95 ${ms(percentile(r.latencies, 95))}, max ${ms(Math.max(...r.latencies))}` +
      (r.failures ? `, ${r.failures} failed (first: ${r.firstFailure})` : "");
    console.log(
      `\nResults (load average now ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" / ")}; other work on this machine counts in them)`,
    );
    console.log(apiLine(`GET /api/runs, ${rps}/s, no viewers`, apiOnly));
    console.log(apiLine(`GET /api/runs, ${rps}/s, ${viewers} viewers`, full));
    console.log(
      `  viewers' longest gap between samples over ${Math.round((end - start) / 1000)} s: max ${ms(Math.max(...gaps))}, p99 ${ms(percentile(gaps, 99))}, median ${ms(percentile(gaps, 50))}` +
        `; ${broken.length} of ${viewers} viewers had an error, a problem event or a duplicate${broken.length ? ` (first: ${broken[0].stats.error ?? broken[0].stats.problems[0] ?? `${broken[0].stats.dupes} duplicates`})` : ""}`,
    );
    console.log(
      `  control store transactions/s: run alone ${alone.toFixed(1)}; + ${viewers} viewers ${viewersOnly.toFixed(1)} (the viewers add ${(viewersOnly - alone).toFixed(1)}/s);` +
        ` + ${rps} requests/s ${withApi.toFixed(1)}; + both ${withViewers.toFixed(1)}`,
    );
    // Where a long gap comes from: the run's own cadence (its samples' time stamps) or the way to the viewers.
    const inWindow = [...arrivals.entries()].filter(([, a]) => a.first >= start && a.first <= end).sort(([x], [y]) => x - y);
    const cadence = inWindow.slice(1).map(([, a], i) => a.time - inWindow[i][1].time);
    const spread = inWindow.map(([, a]) => a.last - a.first);
    console.log(
      `  the run's own longest gap between its samples' time stamps: ${ms(Math.max(...cadence))}; ` +
        `a sample's spread from its first viewer to its last: max ${ms(Math.max(...spread))}, median ${ms(percentile(spread, 50))}`,
    );
    const p95 = percentile(full.latencies, 95);
    const maxGap = Math.max(...gaps);
    const viewersCost = viewersOnly - alone;
    const ok = p95 < 300 && maxGap < 2000 && viewersCost < 20 && broken.length === 0;
    console.log(
      ok
        ? `OK: API p95 ${ms(p95)} < 300 ms, longest gap ${ms(maxGap)} < 2 s, viewers add ${viewersCost.toFixed(1)} transactions/s`
        : `MISSED a goal: API p95 ${ms(p95)} (goal < 300 ms), longest gap ${ms(maxGap)} (goal < 2 s), viewers add ${viewersCost.toFixed(1)} transactions/s (goal: a few), ${broken.length} broken viewers`,
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    for (const v of open) v.close();
    if (runId) await request(base, "POST", `/api/runs/${runId}/cancel`, {}).catch(() => undefined);
    if (app && app.exitCode === null) {
      const gone = new Promise((r) => app!.once("exit", r));
      app.kill("SIGINT"); // npm start stops the runner, the web app, then its Postgres
      await Promise.race([gone, sleep(60_000)]);
      if (app.exitCode === null) app.kill("SIGKILL");
    }
    await admin.end().catch(() => undefined);
    await control.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`bench:viewers: ${(err as Error).message}`);
  process.exit(1);
});
