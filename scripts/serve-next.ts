// Serves the built Next.js app. Started by scripts/start.ts with an IPC channel: when the channel closes
// (the parent exited, even by SIGKILL) this process exits too, so no server is ever left behind.
import http from "node:http";
import next from "next";
import { PROJECT_ROOT } from "../lib/paths";

async function main() {
  const port = Number(process.env.PORT ?? 3000);
  const hostname = process.env.HOST ?? "127.0.0.1";
  const app = next({ dev: false, dir: PROJECT_ROOT, hostname, port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = http.createServer((req, res) => void handle(req, res));
  server.listen(port, hostname, () => process.send?.({ ready: true }));
  const shutdown = () => {
    server.close();
    server.closeAllConnections();
    process.exit(0);
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
  process.on("disconnect", shutdown);
}

main().catch((err) => {
  console.error(`web app: ${(err as Error).message}`);
  process.exit(1);
});
