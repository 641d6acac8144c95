// What `npm start` serves on the app's address while the app is not up yet (embedded Postgres, migrations,
// the first build: up to a few minutes), so the URL printed first never refuses a connection. Browsers get
// a page that says what is happening and reloads itself; /api/* gets 503 {status:"starting"} so scripts and
// Playwright's webServer check keep waiting. The port is then handed to the web app (see handOver): the
// listening socket itself is passed to the child, so the address never stops answering in between.
import type { ChildProcess } from "node:child_process";
import http from "node:http";
import type net from "node:net";

/** The steps of a start with their measured durations, the current one's elapsed time and its latest output. */
export class StartupProgress {
  private readonly done: { label: string; ms: number }[] = [];
  private current: { label: string; since: number } | undefined;
  private lines: string[] = [];

  /** Ends the current step (recording how long it took) and starts `label`. */
  begin(label: string, now = Date.now()) {
    if (this.current) this.done.push({ label: this.current.label, ms: now - this.current.since });
    this.current = { label, since: now };
    this.lines = [];
  }

  /** A line of the current step's own output (the build's stage lines); the newest few are shown. */
  line(text: string) {
    this.lines.push(text);
    if (this.lines.length > 6) this.lines.shift();
  }

  /** "building the web app (34 s): Collecting page data …" */
  detail(now = Date.now()): string {
    if (!this.current) return "starting";
    const last = this.lines[this.lines.length - 1];
    return `${this.current.label} (${seconds(now - this.current.since)})${last ? `: ${last}` : ""}`;
  }

  snapshot(now = Date.now()) {
    return {
      done: [...this.done],
      current: this.current ? { label: this.current.label, elapsedMs: now - this.current.since } : null,
      lines: [...this.lines],
    };
  }
}

/**
 * Splits `next build` output (in chunks as they arrive) into its stage lines ("✓ Compiled successfully in 21s",
 * "Generating static pages using 1 worker (3/12)"), colours and blank lines removed. The route table printed
 * after the last stage is a summary, not progress, and is left out.
 */
export function buildStageReader(onStage: (line: string) => void): (chunk: string) => void {
  let partial = "";
  let routeTable = false;
  return (chunk) => {
    const lines = (partial + chunk).split(/\r?\n|\r/);
    partial = lines.pop() ?? "";
    for (const raw of lines) {
      const line = raw.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "").trim();
      if (/^Route \(/.test(line)) routeTable = true;
      if (line && !routeTable) onStage(line);
    }
  };
}

const seconds = (ms: number) => `${Math.max(0, Math.round(ms / 1000))} s`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Seconds between reloads of the starting page, and the Retry-After given to API clients. */
export const RELOAD_SECONDS = 2;

export function startingHtml(progress: StartupProgress, appUrl: string, now = Date.now()): string {
  const s = progress.snapshot(now);
  const done = s.done.map((d) => `<li class="done">✓ ${escapeHtml(d.label)} <span>${seconds(d.ms)}</span></li>`).join("");
  const current = s.current
    ? `<li class="now">… ${escapeHtml(s.current.label)} <span>${seconds(s.current.elapsedMs)} so far</span>${
        s.lines.length ? `<pre>${s.lines.map(escapeHtml).join("\n")}</pre>` : ""
      }</li>`
    : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="refresh" content="${RELOAD_SECONDS}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Starting · pg-broker-bench</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1f2328}
ol{list-style:none;padding:0}li{margin:.4rem 0}li span{color:#656d76;font-size:.9em;margin-left:.5rem}
.done{color:#1a7f37}.now{font-weight:600}pre{font-weight:400;font-size:.8em;background:#f6f8fa;padding:.5rem;overflow-x:auto;white-space:pre-wrap}
p{color:#656d76}
</style></head>
<body><main>
<h1>pg-broker-bench is starting</h1>
<p role="status" data-testid="starting-status">${escapeHtml(progress.detail(now))}</p>
<ol>${done}${current}</ol>
<p>This page reloads every ${RELOAD_SECONDS} seconds; the app opens here (${escapeHtml(appUrl)}) as soon as it is ready. Progress is also printed in the terminal that runs <code>npm start</code>.</p>
</main></body></html>
`;
}

export interface StartingServer {
  /**
   * Once the web app's process has prepared the app ({prepared: true}), passes it the listening socket; once
   * it serves ({ready: true}), stops answering here. Rejects if the child exits first.
   */
  handOver(child: ChildProcess): Promise<void>;
  close(): Promise<void>;
  /** Whether it still holds the port (false once handed over). */
  listening(): boolean;
}

/** Listens on host:port at once (rejecting with the listen error, e.g. EADDRINUSE) and serves the starting page. */
export function serveStartingPage(opts: { host: string; port: number; progress: StartupProgress; appUrl: string }): Promise<StartingServer> {
  const server = http.createServer((req, res) => {
    const now = Date.now();
    // "Connection: close": a browser's kept-alive connection would otherwise stay with this process after the
    // hand-over and keep getting this page instead of the app.
    const headers = { "Cache-Control": "no-store", Connection: "close", "Retry-After": String(RELOAD_SECONDS) };
    if ((req.url ?? "/").startsWith("/api/")) {
      res.writeHead(503, { ...headers, "Content-Type": "application/json" });
      res.end(JSON.stringify({ status: "starting", detail: opts.progress.detail(now) }));
      return;
    }
    res.writeHead(503, { ...headers, "Content-Type": "text/html; charset=utf-8" });
    res.end(req.method === "HEAD" ? undefined : startingHtml(opts.progress, opts.appUrl, now));
  });
  const close = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      // Idle ones only: a request being answered at the hand-over finishes (every answer says Connection: close).
      server.closeIdleConnections();
    });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject);
      resolve({
        close,
        listening: () => server.listening,
        handOver: (child) =>
          new Promise<void>((done, fail) => {
            // The socket is sent only once the child can serve at once (a child that accepted connections while
            // still preparing would leave them hanging). It serves connections of this very socket
            // (scripts/serve-next.ts) and says "ready" once its listener is attached; only then does this
            // process stop accepting, so the address never refuses a connection.
            const onMessage = (m: { prepared?: boolean; ready?: boolean }) => {
              if (m?.prepared) child.send({ listen: true }, server, (err) => err && fail(err));
              if (!m?.ready) return;
              child.off("message", onMessage);
              child.off("exit", onExit);
              void close().then(done);
            };
            const onExit = () => {
              child.off("message", onMessage);
              fail(new Error("the web app exited before it took over the port"));
            };
            child.on("message", onMessage);
            child.once("exit", onExit);
          }),
      });
    });
  });
}

/**
 * In the web app's process (started by start.ts with IPC): asks for the port once `server` can serve, serves
 * the connections of the listening socket it receives, and says so. Resolves with that socket (to close it).
 */
export function serveHandedOverPort(server: http.Server): Promise<net.Server> {
  return new Promise((resolve) => {
    const onMessage = (m: { listen?: boolean }, socket?: net.Server) => {
      if (!m?.listen || !socket) return;
      process.off("message", onMessage);
      socket.on("connection", (conn: net.Socket) => server.emit("connection", conn));
      process.send!({ ready: true });
      resolve(socket);
    };
    process.on("message", onMessage);
    process.send!({ prepared: true });
  });
}
