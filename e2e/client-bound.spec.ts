// A run whose runner's own delay is in its latencies says so, live and finished, as a caution inside the one
// verdict (never a Client-bound banner beside it). The run is a recorded one (fixtures/client-bound-run.json: a
// busy-wait injected into its runner, flagged by the earlier rule), put into the app's control store as running,
// then as completed, since launching a run with a busy runner is not something the app offers.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { RunPage } from "./pages/RunPage";

const { run } = JSON.parse(readFileSync(path.join(__dirname, "..", "fixtures", "client-bound-run.json"), "utf8"));

async function controlStore() {
  const password = readFileSync(path.join(process.env.E2E_DATA_DIR!, "pg-password"), "utf8").trim();
  const port = Number(process.env.E2E_PG_PORT ?? 24399);
  const client = new pg.Client({ connectionString: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/pgbb_control` });
  await client.connect();
  return client;
}

test("the runner's delay: the live numbers flag each stalled second, the finished page carries it inside its one verdict", async ({ page }) => {
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
    await expect(live).toHaveAttribute("data-runner-caution", "true");
    await expect(live).toContainText(/Caution, the runner’s own delay this second: runner event-loop delay p99 [\d.]+ ms, max [\d.]+ ms; CPU \d+% of one core/);
    await expect(live).toContainText(/these latencies include up to [\d.]+ ms of the runner's own delay \(write p99 [\d.]+ ms\)/);

    // Finished: the summary arrives and the page leads with its one verdict, the runner's delay a caution inside it,
    // and the runner's load in the manifest.
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
    await expect(page.getByTestId("verdict")).toHaveCount(1);
    await expect(page.getByTestId("client-bound")).toHaveCount(0);
    const caution = page.getByTestId("verdict").getByTestId("verdict-caution");
    await expect(caution).toContainText(/^Caution: these latencies include up to \d+ ms of the runner's own delay \(event-loop delay p99/);
    await expect(caution).toContainText(`against a write p99 of`);
    const manifest = page.getByTestId("manifest");
    await expect(manifest).toContainText(
      /runner load\s*event-loop delay p50 [\d.,]+ m?s · p99 [\d.,]+ m?s · max [\d.,]+ m?s .*: its delay is in the latencies \(a caution, not the limit\)/,
    );
    await expect(manifest).toContainText("on the runner's own machine (127.0.0.1)");
    // The same after a reload (server-rendered from the stored summary).
    await page.reload();
    await expect(page.getByTestId("verdict-caution")).toBeVisible();
    await expect(page.getByTestId("client-bound")).toHaveCount(0);
  } finally {
    await db.query("DELETE FROM run WHERE id = $1", [run.id]).catch(() => undefined);
    await db.end();
  }
});
