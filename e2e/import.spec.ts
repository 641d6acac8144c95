// A user importing the reference tool's real output (pasted, then uploaded as a file) and a malformed one.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { SAME_ORIGIN } from "./same-origin";

const OUT = path.join(__dirname, "..", "fixtures", "kozlovski", "tool-output");
const PUBSUB_FILE = path.join(OUT, "pubsub-4vcpu-preset-30s.txt");
const QUEUE_FILE = path.join(OUT, "queue-4vcpu-preset-30s.txt");

test("paste a real pubsub output: it becomes an imported result, compared with the published scenario", async ({ page }) => {
  await page.goto("/compare?ids=ref:pubsub-4vcpu-single-node");
  const panel = page.getByTestId("import-panel");
  await panel.locator("summary").click();
  await panel.getByLabel("Label").fill("my pubsub paste");
  await panel.getByLabel("Output").fill(readFileSync(PUBSUB_FILE, "utf8"));
  await panel.getByRole("button", { name: "Import and compare" }).click();

  await expect(page).toHaveURL(/ids=ref:pubsub-4vcpu-single-node,imp_[0-9a-f]{12}/);
  const id = /imp_[0-9a-f]{12}/.exec(page.url())![0];
  const chip = page.getByTestId("selected-items").locator(`[data-key='${id}']`);
  await expect(chip).toContainText("Imported: my pubsub paste");
  await expect(chip.locator("[data-badge='imported']")).toBeVisible();
  // The tool's own numbers: aggregate reads of the 5 groups, write latency of the base summary.
  await expect(page.getByTestId(`result-readPerSec-${id}`)).toHaveAttribute("data-value", "25566.67");
  await expect(page.getByTestId(`result-write.p50-${id}`).locator(".v")).toHaveText("19.202 ms");
  await expect(page.getByTestId(`result-e2e.p99-${id}`).locator(".v")).toHaveText("144.441 ms");
  // Neither the tool nor the reference prints a max: the row is left out rather than filled in.
  await expect(page.getByTestId(`result-e2e.max-${id}`)).toHaveCount(0);
  // Config read from the output itself; what it cannot know stays unknown.
  const cfg = page.getByTestId("config-table");
  await expect(cfg.locator("tr[data-row='consumerGroups']")).toContainText("5");
  await expect(cfg.locator("tr[data-row='readBatch']")).toContainText("200 (inferred)");
  await expect(page.getByText("the base summary's read/e2e latencies print 0s in pubsub mode and are ignored")).toBeVisible();

  // Its own page keeps the text as pasted.
  await page.goto(`/compare/imports/${id}`);
  await expect(page.locator("pre.raw")).toContainText("=== Aggregate Across All Groups ===");
});

test("upload a real queue output as a file", async ({ page }) => {
  await page.goto("/compare");
  const panel = page.getByTestId("import-panel");
  await expect(panel).toHaveAttribute("open", ""); // open when nothing is selected
  await panel.getByTestId("import-file").setInputFiles(QUEUE_FILE);
  await expect(panel.getByLabel("Output")).toHaveValue(/=== Summary ===/);
  await expect(panel.getByLabel("Label")).toHaveValue("queue-4vcpu-preset-30s");
  await panel.getByLabel(/Command line/).fill("./pg_msg_bench --writers=10 --readers=15 --duration=30s --payload=1024 --throttle_writes=2900 --mode=queue");
  await panel.getByRole("button", { name: "Import and compare" }).click();
  await expect(page).toHaveURL(/ids=imp_[0-9a-f]{12}$/);
  const id = /imp_[0-9a-f]{12}/.exec(page.url())![0];
  await expect(page.getByTestId(`result-writePerSec-${id}`)).toHaveAttribute("data-value", "2973.93");
  await expect(page.getByTestId(`result-writeMiBPerSec-${id}`).locator(".v")).toHaveText("2.9"); // 2973.93 × 1024 / 2^20
  await expect(page.getByTestId(`result-e2e.p50-${id}`).locator(".v")).toHaveText("8.56 s"); // 8,560.574 ms
  await expect(page.getByTestId("config-table").locator("tr[data-row='writers']")).toContainText("10");
});

test("a malformed paste says which line could not be read, and nothing is stored", async ({ page, request }) => {
  const before = (await (await request.get("/api/imports")).json()).imports.length;
  const lines = readFileSync(QUEUE_FILE, "utf8").split("\n");
  const n = lines.findIndex((l) => l.includes("P50: 1.653759ms"));
  lines[n] = "  P50: banana";
  await page.goto("/compare");
  const panel = page.getByTestId("import-panel");
  await panel.getByLabel("Output").fill(lines.join("\n"));
  await panel.getByRole("button", { name: "Import and compare" }).click();
  await expect(page.getByTestId("import-error")).toContainText(`line ${n + 1}: expected 'P50: <duration>' but found 'P50: banana'`);
  await expect(page).toHaveURL(/\/compare$/);
  await expect(panel.getByLabel("Output")).toHaveValue(/P50: banana/); // the text stays for fixing

  // A text that is not the tool's output at all.
  await panel.getByLabel("Output").fill("hello\nworld");
  await panel.getByRole("button", { name: "Import and compare" }).click();
  await expect(page.getByTestId("import-error")).toContainText("line 1: could not read 'hello'");

  const api = await request.post("/api/imports", { headers: SAME_ORIGIN, data: { text: lines.join("\n") } });
  expect(api.status()).toBe(400);
  expect(await api.json()).toMatchObject({ line: n + 1 });
  expect((await (await request.get("/api/imports")).json()).imports.length).toBe(before);
});
