// A run whose runner was itself the bottleneck says so, live and finished. The run is a recorded one
// (fixtures/client-bound-run.json: a busy-wait injected into its runner), put into the app's control store
// as running, then as completed, since launching a run with a busy runner is not something the app offers.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { RunPage } from "./pages/RunPage";

const { run } = JSON.parse(readFileSync(path.join(__dirname, "..", "fixtures", "client-bound-run.json"), "utf8"));

async function controlStore() {
  const password = readFileSync(path.join(process.env.E2E_DATA_DIR!, "pg-password"), "utf8").trim();
  const port = Number(process.env.E2E_PG_PORT ?? 54399);
  const client = new pg.Client({ connectionString: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/pgbb_control` });
  await client.connect();
  return client;
}

test("client-bound: the live numbers flag each stalled second, the finished page states the verdict and the runner's load", async ({ page }) => {
  const db = await controlStore();
  try {
    // Running, on the app's own runner (so it is not taken for an orphan), with its samples so far.
    const runner = await db.query<{ id: string }>("SELECT id FROM runner ORDER BY last_heartbeat DESC LIMIT 1");
    await db.query(
      `INSERT INTO run (id, workload, config, target_label, status, phase, source, runner_id, created_at, started_at)
       VALUES ($1, $2, $3, $4, 'running', 'measuring', 'cli', $5, now(), now())`,
      [run.id, run.workload, JSON.stringify(run.config), run.targetLabel, runner.rows[0]?.id ?? null],
    );
    const measuring = run.samples.filter((s: { phase: string }) => s.phase !== "draining");
    for (const s of measuring)
      await db.query("INSERT INTO sample (run_id, seq, time, phase, metrics) VALUES ($1, $2, $3, $4, $5)", [
        run.id,
        s.seq,
        s.time,
        s.phase,
        JSON.stringify(s.metrics),
      ]);

    const runPage = new RunPage(page);
    await runPage.open(run.id);
    const live = page.getByTestId("live-runner-load");
    await expect(live).toHaveAttribute("data-client-bound", "true");
    await expect(live).toContainText(/Client-bound this second: runner event-loop delay p99 [\d.]+ ms, max [\d.]+ ms; CPU \d+% of one core/);
    await expect(live).toContainText(/these latencies include up to [\d.]+ ms of the runner's own delay \(write p99 [\d.]+ ms\)/);

    // Finished: the summary arrives and the page says the verdict above the numbers, and the runner's load in the manifest.
    for (const s of run.samples.filter((s: { phase: string }) => s.phase === "draining"))
      await db.query("INSERT INTO sample (run_id, seq, time, phase, metrics) VALUES ($1, $2, $3, $4, $5)", [
        run.id,
        s.seq,
        s.time,
        s.phase,
        JSON.stringify(s.metrics),
      ]);
    await db.query("UPDATE run SET status = 'completed', phase = 'done', finished_at = now(), summary = $2 WHERE id = $1", [
      run.id,
      JSON.stringify(run.summary),
    ]);
    await runPage.waitForStatus("completed", 30_000);
    const verdict = page.getByTestId("client-bound");
    await expect(verdict).toContainText(/^Client-bound\. These latencies include up to \d+ ms of the runner's own delay \(event-loop delay p99/);
    await expect(verdict).toContainText(`against a write p99 of`);
    const manifest = page.getByTestId("manifest");
    await expect(manifest).toContainText(/runner load\s*event-loop delay p50 [\d.,]+ m?s · p99 [\d.,]+ m?s · max [\d.,]+ m?s .*: CLIENT-BOUND/);
    await expect(manifest).toContainText("on the runner's own machine (127.0.0.1)");
    // The same after a reload (server-rendered from the stored summary).
    await page.reload();
    await expect(page.getByTestId("client-bound")).toBeVisible();
  } finally {
    await db.query("DELETE FROM run WHERE id = $1", [run.id]).catch(() => undefined);
    await db.end();
  }
});
