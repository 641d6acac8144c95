// Serves the built Next.js app. Started by scripts/start.ts with an IPC channel: when the channel closes
// (the parent exited, even by SIGKILL) this process exits too, so no server is ever left behind.
// Under start.ts the port is already open (it serves the "starting" page there, scripts/starting-page.ts):
// once the app is prepared this process says {prepared}, receives that listening socket, serves its
// connections and says {ready}. Run alone (no IPC), it listens on HOST:PORT itself.
import http from "node:http";
import type net from "node:net";
import next from "next";
import { checkMethod, refusalHeaders } from "../lib/api/request-guard";
import { PROJECT_ROOT } from "../lib/paths";
import { provideReportRenderer } from "../lib/report/renderer";
import { controlStoreDown, setSupervisorStates, type SupervisorStates } from "../platform/supervisor-state";
import { serveHandedOverPort } from "./starting-page";

// The exported reports' renderer, loaded on the first export, outside Next's bundle (lib/report/renderer.ts says why).
provideReportRenderer(() => import("../components/report/render"));

/** How long an idle keep-alive connection is kept open. */
const KEEP_ALIVE_MS = 65_000;

async function main() {
  const port = Number(process.env.PORT ?? 3000);
  const hostname = process.env.HOST ?? "127.0.0.1";
  const app = next({ dev: false, dir: PROJECT_ROOT, hostname, port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = http.createServer((req, res) => {
    // A method the app does not answer never reaches Next, which throws building a fetch Request of a TRACE
    // (lib/api/request-guard.ts): a 405 naming the methods it answers.
    const badMethod = checkMethod(req.method ?? "");
    if (badMethod) {
      res.writeHead(405, { "Content-Type": "application/json", ...refusalHeaders(badMethod) });
      res.end(JSON.stringify({ error: badMethod.error, fields: { method: badMethod.error } }));
      return;
    }
    // While npm start restarts the embedded Postgres, API calls get a message saying so instead of an
    // empty 500 (the health route answers itself: it reports every part).
    const down = controlStoreDown();
    if (down && req.url?.startsWith("/api/") && !req.url.startsWith("/api/health")) {
      res.writeHead(503, { "Content-Type": "application/json", "Cache-Control": "no-store", "Retry-After": "2" });
      res.end(JSON.stringify({ error: `${down}; try again in a few seconds` }));
      return;
    }
    void handle(req, res);
  });
  // An idle keep-alive connection is kept 65 s, not Node's 5 s: a client that reuses one it held idle a few seconds (a
  // script's HTTP agent, Playwright's request context) would otherwise now and then send its request just as the server
  // closes the connection, and get "socket hang up" for a request never read. Headers stay bounded above it, as Node asks.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1000;
  // npm start's supervisors tell this process what they know (platform/supervisor-state.ts).
  process.on("message", (m: { supervisor?: SupervisorStates }) => m?.supervisor && setSupervisorStates(m.supervisor));
  process.send?.({ hello: true });
  let shared: net.Server | undefined;
  const shutdown = () => {
    shared?.close();
    server.close();
    server.closeAllConnections();
    process.exit(0);
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
  process.on("disconnect", shutdown);

  if (process.send) shared = await serveHandedOverPort(server);
  else server.listen(port, hostname);
}

main().catch((err) => {
  console.error(`web app: ${(err as Error).message}`);
  process.exit(1);
});
