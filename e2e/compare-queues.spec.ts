// The article's queue beside a queue library at the same offered rate (issue 32): two short runs launched through
// the API, then /compare says in one table which sustained what, every number the stored run's own.
import { expect, test } from "@playwright/test";
import { latencyOf, throughputOf } from "../lib/measurement/operations";
import { RunSummary } from "../lib/measurement/summary";
import { fmtLatency } from "../lib/runs/numbers";
import { SAME_ORIGIN } from "./same-origin";

test.describe.configure({ mode: "serial" });

/** 100 items/s for 3 measured seconds each: the queue through its write throttle, pg-boss on its open loop. */
const RATE = 100;
const CONFIGS = [
  { kind: "queue", writers: 1, readers: 1, throttleWritesPerSec: RATE, warmupSeconds: 1, durationSeconds: 3 },
  { kind: "pg-boss", rate: RATE, enqueuers: 2, localConcurrency: 2, batchSize: 10, notify: true, warmupSeconds: 1, durationSeconds: 3 },
];

test("a queue run and a pg-boss run at one offered rate: one table of what each sustained, at which latency", async ({ page, request }) => {
  test.setTimeout(240_000);
  const runs: { id: string; summary: RunSummary }[] = [];
  for (const config of CONFIGS) {
    const res = await request.post("/api/runs", { headers: SAME_ORIGIN, data: { config } });
    expect(res.status(), await res.text()).toBe(201);
    const { id } = await res.json();
    let run: { status: string; error?: string; summary?: unknown } = { status: "queued" };
    await expect
      .poll(async () => (run = await (await request.get(`/api/runs/${id}`)).json()).status, { timeout: 100_000, intervals: [500] })
      .toMatch(/completed|failed|cancelled|interrupted/);
    expect(run.status, run.error).toBe("completed");
    runs.push({ id, summary: RunSummary.parse(run.summary) });
  }
  const [queue, boss] = runs;

  await page.goto(`/compare?ids=${queue.id},${boss.id}`);
  const table = page.getByTestId("sustained-table");
  await expect(table.getByRole("heading", { name: "Which sustained what" })).toBeVisible();
  await expect(table.locator("tbody tr")).toHaveCount(2);
  // The same offered rate: no flag.
  await expect(page.getByTestId("not-same-rate")).toHaveCount(0);
  const cell = (col: string, id: string) => page.getByTestId(`sustained-${col}-${id}`);
  await expect(cell("offered", queue.id)).toHaveText(`${RATE} msg/s`);
  await expect(cell("offered", boss.id)).toHaveText(`${RATE} job/s`);
  for (const { id, summary } of runs) {
    // Consumed: the stored read rate, unrounded behind its text; kept up: whether it reached 95% of the offer.
    const read = throughputOf(summary, "read")!.perSecond;
    await expect(cell("consumed", id)).toHaveAttribute("data-value", String(read));
    await expect(cell("consumed", id)).toHaveText(/^[\d.,]+ (msg|job)\/s$/);
    await expect(cell("keptUp", id)).toHaveText(read / RATE >= 0.95 ? "yes" : "no");
  }
  // Latency from the scheduled enqueue: pg-boss's start and done, the queue's done (its delivery from the write's schedule).
  const bossStart = latencyOf(boss.summary, "start")!;
  const bossDone = latencyOf(boss.summary, "e2e")!;
  await expect(cell("start.p99", boss.id)).toHaveText(fmtLatency(bossStart.p99, "—"));
  await expect(cell("start.p99", boss.id)).toHaveAttribute("data-value", String(bossStart.p99));
  await expect(cell("done.p999", boss.id)).toHaveText(fmtLatency(bossDone.p999, "—"));
  await expect(cell("done.p50", queue.id)).toHaveText(fmtLatency(latencyOf(queue.summary, "e2eScheduled")!.p50, "—"));
  // A metric the queue does not have is a dash that says why.
  await expect(cell("start.p50", queue.id)).toHaveText("—");
  await expect(cell("start.p50", queue.id)).toHaveAttribute("title", /no handler apart from its dequeue/);

  // The Markdown export carries the same table.
  const md = await (await request.get(`/api/compare?ids=${queue.id},${boss.id}&format=md`)).text();
  expect(md).toContain("## Which sustained what");
  expect(md).toContain(`| ${RATE} job/s |`);
});
