// `npm run screenshots -- [--url http://127.0.0.1:3000] [--out docs/images]`: the README's pictures, made from real
// runs so they can be remade whenever the pages change. Against a running app (`npm start`), it launches a short
// queue run on the default target through the API, waits for it to finish, and photographs its page and its
// comparison with the published 4 vCPU queue scenario, as a user sees them (1280 px wide, Chromium).
// Not run by the tests: its pictures are whatever the product says today, which is the point.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { browserExecutable } from "../e2e/browser";
import { PROJECT_ROOT } from "../lib/paths";

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}
const BASE = option("url", "http://127.0.0.1:3000").replace(/\/$/, "");
const OUT = path.resolve(PROJECT_ROOT, option("out", "docs/images"));
const HEADERS = { "content-type": "application/json", origin: BASE };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function launchRun(config: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${BASE}/api/runs`, { method: "POST", headers: HEADERS, body: JSON.stringify({ config }) });
  const body = (await res.json()) as { id?: string; error?: string };
  if (res.status !== 201 || !body.id) throw new Error(`launching a run: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body.id;
}

async function waitFinal(id: string, boundMs: number): Promise<string> {
  const until = Date.now() + boundMs;
  while (Date.now() < until) {
    const run = (await (await fetch(`${BASE}/api/runs/${id}`)).json()) as { run?: { status: string }; status?: string };
    const status = run.run?.status ?? run.status ?? "";
    if (["completed", "failed", "cancelled", "interrupted"].includes(status)) return status;
    await sleep(1000);
  }
  throw new Error(`run ${id} did not finish within ${boundMs / 1000} s`);
}

async function main() {
  const health = await fetch(`${BASE}/api/health`).catch(() => null);
  if (!health?.ok) {
    console.error(`No app answers at ${BASE}: start it with \`npm start\` (or give --url), then run this again.`);
    process.exit(2);
  }
  mkdirSync(OUT, { recursive: true });
  console.log(`launching a 20 s queue run (2 writers, 2 readers, 500 msg/s limit) at ${BASE}…`);
  const id = await launchRun({ kind: "queue", writers: 2, readers: 2, throttleWritesPerSec: 500, durationSeconds: 20, warmupSeconds: 5 });
  const status = await waitFinal(id, 5 * 60_000);
  console.log(`run ${id}: ${status}`);
  const browser = await chromium.launch({ executablePath: browserExecutable(), args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const shots: [string, string][] = [
      ["run-page.png", `/runs/${id}`],
      ["compare.png", `/compare?ids=ref:queue-4vcpu-single-node,${id}`],
    ];
    for (const [file, url] of shots) {
      await page.goto(`${BASE}${url}`, { waitUntil: "networkidle" });
      await sleep(1500); // charts animate in
      await page.screenshot({ path: path.join(OUT, file) });
      console.log(`wrote ${path.relative(PROJECT_ROOT, path.join(OUT, file))} (${url})`);
    }
  } finally {
    await browser.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
