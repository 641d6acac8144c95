// The e2e app's embedded servers (playwright.config.ts: E2E_DATA_DIR, E2E_PG_PORT, E2E_TARGET_PG_PORT): the control
// store's in DATA_DIR, the default target's own in DATA_DIR/target (platform/embedded.ts).
import { readFileSync } from "node:fs";
import path from "node:path";

export function embeddedServer(which: "control" | "target") {
  const home = which === "control" ? process.env.E2E_DATA_DIR! : path.join(process.env.E2E_DATA_DIR!, "target");
  const password = readFileSync(path.join(home, "pg-password"), "utf8").trim();
  const pgPort = Number(process.env.E2E_PG_PORT ?? 24399);
  const port = which === "control" ? pgPort : Number(process.env.E2E_TARGET_PG_PORT ?? pgPort + 1);
  return { password, port, url: (db: string) => `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}` };
}
