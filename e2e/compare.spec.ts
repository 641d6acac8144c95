// A user comparing two runs stored by the real runner with a published reference: differences-only, a new
// baseline, a copied link opened in a fresh browser context showing the same numbers, and exports whose
// numbers equal the stored ones.
import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { latencyOf, throughputOf } from "../lib/measurement/operations";
import { RunSummary } from "../lib/measurement/summary";
import { fmtChange, fmtLatency } from "../lib/runs/numbers";
import { SAME_ORIGIN } from "./same-origin";

test.describe.configure({ mode: "serial" });

const REF = "ref:queue-4vcpu-single-node";
/** Tiny runs on 2 cores: 1 writer, 1 reader, 1 s warm-up, 3 s measured (about 8 s each with setup and drain). */
const TINY = [
  { kind: "queue", writers: 1, readers: 1, warmupSeconds: 1, durationSeconds: 3 },
  { kind: "queue", writers: 2, readers: 1, warmupSeconds: 1, durationSeconds: 3, throttleWritesPerSec: 300 },
];

interface Stats {
  p50: number;
  p95: number;
  p99: number;
  p999: number;
  max: number;
}
interface StoredSummary {
  writes: { msgPerSec: number; mibPerSec: number };
  reads: { msgPerSec: number; mibPerSec: number };
  latencyMs: { write: Stats; read: Stats; e2e: Stats };
}
const runs: { id: string; summary: StoredSummary }[] = [];

async function completedRun(request: APIRequestContext, config: object): Promise<{ id: string; summary: StoredSummary }> {
  const res = await request.post("/api/runs", { headers: SAME_ORIGIN, data: { config } });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = await res.json();
  let run: { status: string; error?: string; summary?: unknown } = { status: "queued" };
  await expect
    .poll(
      async () => {
        run = await (await request.get(`/api/runs/${id}`)).json();
        return run.status;
      },
      // A run waits its turn on the app's one runner, behind another spec's A/B, ladder or sweep: a wait for the queue.
      { timeout: 200_000, intervals: [500] },
    )
    .toMatch(/completed|failed|cancelled|interrupted/);
  expect(run.status, run.error).toBe("completed");
  return { id, summary: storedView(RunSummary.parse(run.summary)) };
}

/** The stored summary's numbers this spec checks, read through the accessors of the declared operations. */
function storedView(s: RunSummary): StoredSummary {
  const rate = (op: string) => {
    const t = throughputOf(s, op)!;
    return { msgPerSec: t.perSecond, mibPerSec: t.mibPerSec };
  };
  return { writes: rate("write"), reads: rate("read"), latencyMs: { write: latencyOf(s, "write")!, read: latencyOf(s, "read")!, e2e: latencyOf(s, "e2e")! } };
}

/** One CSV line's fields (quoted fields may hold commas and "" for a quote). */
function csvFields(line: string): string[] {
  return [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map((m) => m[1].replace(/^"|"$/g, "").replace(/""/g, '"'));
}
const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;
const num = (s: string) => Number(s.replace(/,/g, ""));

/** The values shown in the results table, row by row (the numbers only, without the deltas). */
async function resultNumbers(page: Page) {
  return page.locator("[data-testid^='result-'] .v").allTextContents();
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(400_000);
  for (const c of TINY) runs.push(await completedRun(request, c));
});

test("compare two stored runs and a reference: differences only, a new baseline, a copied link opened elsewhere", async ({ page, browser, context }) => {
  const [a, b] = runs;
  // Pick the two runs and the reference.
  await page.goto("/compare");
  for (const key of [a.id, b.id, REF]) {
    await page.getByTestId("picker-select").selectOption(key);
    await page.getByTestId("picker-add").click();
    await expect(page.getByTestId("selected-items").locator(`[data-key='${key}']`)).toBeVisible();
  }
  await expect(page).toHaveURL(new RegExp(`/compare\\?ids=${a.id},${b.id},${REF}$`));

  // All three are there, each with its badge; the reference is labelled published, never measured.
  const chips = page.getByTestId("selected-items");
  await expect(chips.locator(`[data-key='${a.id}'] [data-badge='measured']`)).toBeVisible();
  await expect(chips.locator(`[data-key='${b.id}'] [data-badge='measured']`)).toBeVisible();
  await expect(chips.locator(`[data-key='${REF}'] [data-badge='published']`)).toBeVisible();

  // The numbers are the stored ones (the cell keeps the unrounded value) and the published ones.
  await expect(page.getByTestId(`result-writePerSec-${a.id}`)).toHaveAttribute("data-value", String(a.summary.writes.msgPerSec));
  await expect(page.getByTestId(`result-e2e.p99-${b.id}`)).toHaveAttribute("data-value", String(b.summary.latencyMs.e2e.p99));
  await expect(page.getByTestId(`result-writePerSec-${REF}`)).toHaveAttribute("data-value", "2885");
  await expect(page.getByTestId(`result-e2e.p999-${REF}`).locator(".v")).toHaveText("—"); // not published, never invented

  // The context panel says what is unfair.
  const unfair = page.getByTestId("context-panel");
  // Ranked, most telling first: the first four shown, the rest folded under "N more" until opened.
  await expect(unfair.getByTestId("context-top").locator("li")).toHaveCount(4);
  const ranks = (await unfair.locator("li[data-rank]").evaluateAll((lis) => lis.map((li) => li.getAttribute("data-rank")))).map(Number);
  expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
  await expect(unfair.getByTestId("context-more").locator("summary")).toHaveText(/^\d+ more \(less likely to change the reading\)$/);
  await unfair.getByTestId("context-more").locator("summary").click();
  for (const topic of ["hardware", "length", "throttle", "flaw"]) await expect(unfair.locator(`[data-topic='${topic}']`).first()).toBeVisible();
  await expect(unfair).toContainText("IMPERFECTIONS");

  // Differences only: fewer rows, every remaining one differs; the URL keeps it.
  const rows = page.getByTestId("config-table").locator("tbody tr[data-row]");
  const all = await rows.count();
  await page.getByTestId("diff-toggle").check();
  await expect.poll(() => rows.count()).toBeLessThan(all);
  const shown = await rows.count();
  expect(shown).toBeGreaterThan(0);
  expect(await rows.evaluateAll((trs) => trs.every((tr) => tr.getAttribute("data-differs") === "1"))).toBe(true);
  await expect(page.getByTestId("config-table").locator("tr[data-row='writers']")).toBeVisible();
  await expect(page.getByTestId("config-table").locator("tr[data-row='payloadBytes']")).toHaveCount(0); // 1024 everywhere
  await expect(page).toHaveURL(/diff=1/);

  // Baseline: the first item at first; then the reference.
  await expect(page.getByTestId(`delta-writePerSec-${a.id}`)).toHaveCount(0);
  const ratioB = b.summary.writes.msgPerSec / a.summary.writes.msgPerSec;
  await expect(page.getByTestId(`delta-writePerSec-${b.id}`)).toHaveText(fmtChange((ratioB - 1) * 100));
  await page.getByRole("radio", { name: /Use Published: queue · 4 vCPU single node as the baseline/ }).check();
  await expect(page).toHaveURL(new RegExp(`base=${REF.replace(":", "(:|%3A)")}`));
  await expect(page.getByTestId(`delta-writePerSec-${REF}`)).toHaveCount(0);
  const ratioA = a.summary.writes.msgPerSec / 2885;
  await expect(page.getByTestId(`delta-writePerSec-${a.id}`)).toHaveText(fmtChange((ratioA - 1) * 100));

  // Copy the link.
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByTestId("copy-link").click();
  await expect(page.getByTestId("copy-link")).toHaveText(/Copied/);
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toBe(page.url());
  expect(link).toContain(`ids=${a.id},${b.id},${REF}`);
  // The Markdown export links to exactly this view: the Copy link URL, host, baseline and diff=1 included.
  const download = page.waitForEvent("download");
  await page.getByTestId("export-md").click();
  const exported = readFileSync((await (await download).path())!, "utf8");
  expect(/^Link: (.*)$/m.exec(exported)?.[1]).toBe(link);
  const numbers = await resultNumbers(page);
  const deltas = await page.locator("[data-testid^='delta-']").allTextContents();
  const configRows = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-row")));

  // A fresh browser context (no cookies, no storage) opening the link sees the same view.
  const other = await browser.newContext();
  try {
    const p2 = await other.newPage();
    await p2.goto(link);
    await expect(p2.getByTestId("results-table")).toBeVisible();
    expect(await resultNumbers(p2)).toEqual(numbers);
    expect(await p2.locator("[data-testid^='delta-']").allTextContents()).toEqual(deltas);
    await expect(p2.getByTestId("diff-toggle")).toBeChecked();
    expect(
      await p2
        .getByTestId("config-table")
        .locator("tbody tr[data-row]")
        .evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-row"))),
    ).toEqual(configRows);
    await expect(p2.getByRole("radio", { name: /Use Published: queue · 4 vCPU single node as the baseline/ })).toBeChecked();
    await expect(p2.getByTestId(`result-writePerSec-${a.id}`)).toHaveAttribute("data-value", String(a.summary.writes.msgPerSec));
  } finally {
    await other.close();
  }

  // Removing an item reloads the comparison without it; the baseline stays.
  await page.getByRole("button", { name: `Remove ${b.id} · queue 2w/1r` }).click();
  await expect(page).toHaveURL(new RegExp(`ids=${a.id},${REF.replace(":", "(:|%3A)")}`));
  await expect(page.getByTestId(`result-writePerSec-${b.id}`)).toHaveCount(0);
});

test("the Markdown export's numbers equal the stored ones; CSV and JSON carry them unrounded", async ({ page, request }) => {
  const [a, b] = runs;
  await page.goto(`/compare?ids=${a.id},${b.id},${REF}&base=${a.id}`);
  const download = page.waitForEvent("download");
  await page.getByTestId("export-md").click();
  const md = readFileSync((await (await download).path())!, "utf8");

  // Summary table, as the reference README's: "<msg/s> msg/s / <MiB/s> MiB/s" and "p50 / p95 / p99", each with its unit.
  for (const r of runs) {
    const row = md.split("\n").find((l) => l.startsWith(`| ${r.id} `))!;
    expect(row, `summary row of ${r.id}`).toBeTruthy();
    const cells = row.split(" | ").map((c) => c.replace(/^\| |\s*\|$/g, ""));
    const [wMsg, wMiB] = [...cells[3].matchAll(/([\d,.]+) (msg|MiB)\/s/g)].map((m) => num(m[1]));
    expect(wMsg).toBe(round(r.summary.writes.msgPerSec, 2));
    expect(wMiB).toBe(round(r.summary.writes.mibPerSec, 2));
    const [rMsg] = [...cells[4].matchAll(/([\d,.]+) msg\/s/g)].map((m) => num(m[1]));
    expect(rMsg).toBe(round(r.summary.reads.msgPerSec, 2));
    // Each latency with its unit, as every page writes it.
    const e2e = r.summary.latencyMs.e2e;
    expect(cells[5]).toBe([e2e.p50, e2e.p95, e2e.p99].map((v) => fmtLatency(v)).join(" / "));
    const write = r.summary.latencyMs.write;
    expect(cells[6]).toBe([write.p50, write.p95, write.p99].map((v) => fmtLatency(v)).join(" / "));
  }
  // The published row is the published headline.
  expect(md).toContain(
    "| Published: queue · 4 vCPU single node | published | AWS c7i.xlarge: 4 vCPU, 8 GiB, gp3 25GB 9000 IOPS | 2,885 msg/s / 2.82 MiB/s | 2,885 msg/s / 2.82 MiB/s | 5.07 ms / 5.74 ms / 15.86 ms |",
  );
  // Results with deltas against the baseline, p99.9 and max included for stored runs.
  const p999 = md.split("\n").find((l) => l.startsWith("| End-to-end p99.9 |"))!;
  expect(p999.split(" | ")[1]).toBe(fmtLatency(a.summary.latencyMs.e2e.p999)); // with its unit: "5.123 ms", "16.2 s"
  expect(p999).toContain("| — |"); // the reference publishes none
  expect(md).toContain("## What makes this comparison unfair");
  expect(md).toContain(`Link: `);

  const csv = await (await request.get(`/api/compare?ids=${a.id},${b.id},${REF}&base=${a.id}&format=csv`)).text();
  const [header, rowA] = csv.trim().split("\n").map(csvFields);
  const col = (name: string) => rowA[header.indexOf(name)];
  expect(Number(col("write_per_s"))).toBe(a.summary.writes.msgPerSec);
  expect(Number(col("e2e_p999_ms"))).toBe(a.summary.latencyMs.e2e.p999);

  const json = await (await request.get(`/api/compare?ids=${a.id},${REF}&format=json`)).json();
  expect(json.items.map((i: { badge: string }) => i.badge)).toEqual(["measured", "published"]);
  expect(json.results.find((r: { key: string }) => r.key === "read.p99").values).toEqual([a.summary.latencyMs.read.p99, 4.2]);

  const missing = await request.get(`/api/compare?ids=r_doesnotexist&format=md`);
  expect(missing.status()).toBe(404);
  expect((await missing.json()).error).toContain("r_doesnotexist: no such run");
});

test("references: listed with what they measured and their caveats; JSON; Run this here carries the preset", async ({ page, request }) => {
  await page.goto("/references");
  await expect(page.getByTestId("references-table").locator("tr[data-ref]")).toHaveCount(6);
  const card = page.getByTestId("ref-queue-96vcpu-single-node");
  await expect(card).toContainText("100 writers and 200 readers");
  await expect(card.getByTestId("caveats")).toContainText("inflated");
  await expect(card.getByTestId("run-here-queue-96vcpu-single-node")).toHaveAttribute("href", "/runs/new?preset=queue-96vcpu-single-node");

  await page.goto("/references/pubsub-96vcpu-single-node");
  await expect(page.getByTestId("fit-warnings")).toContainText("needs 252 connections");
  await expect(page.getByTestId("fit-warnings")).toContainText("max_connections=500");
  await expect(page.getByTestId("runs-table")).toContainText("11.001855ms");
  // "Run this here": the new-run form with the published config, and the warning that it cannot fit.
  await page.getByTestId("run-here-pubsub-96vcpu-single-node").click();
  await expect(page).toHaveURL(/\/runs\/new\?preset=pubsub-96vcpu-single-node$/);
  await expect(page.getByLabel("Writers", { exact: true })).toHaveValue("100");
  await expect(page.getByTestId("connections")).toContainText("This run opens 252 connections");
  await expect(page.getByTestId("connections")).toContainText("Too many");

  const body = await (await request.get("/api/references")).json();
  expect(body.references).toHaveLength(6);
  expect(body.references[0]).toMatchObject({ id: "pubsub-4vcpu-single-node", badge: "published", headline: { writeMsgPerSec: 5037 } });
  const fit = await (await request.get("/api/references/pubsub-96vcpu-single-node/fit")).json();
  expect(fit.warnings[0]).toMatchObject({ severity: "blocker", field: "readers" });
});
