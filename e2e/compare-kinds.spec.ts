// Results of different kinds side by side: what is known to move a reference's or an import's figures stands
// beside the deltas it explains, and other studies' published results are listed, shown and compared like
// Kozlovski's (whichever the registered workloads publish; the Kozlovski part runs regardless).
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { SAME_ORIGIN } from "./same-origin";

const PUBSUB_FILE = path.join(__dirname, "..", "fixtures", "kozlovski", "tool-output", "pubsub-4vcpu-preset-30s.txt");
const REF = "ref:pubsub-4vcpu-single-node";

test("a reference beside an imported output: its start-up burst and rate divisor stand beside the write msg/s delta", async ({ page, request }) => {
  const res = await request.post("/api/imports", { headers: SAME_ORIGIN, data: { label: "kinds paste", text: readFileSync(PUBSUB_FILE, "utf8") } });
  expect(res.status()).toBe(201);
  const { id } = await res.json();
  await page.goto(`/compare?ids=${REF},${id}&base=${id}`);

  const refWrite = page.getByTestId(`result-writePerSec-${REF}`);
  await expect(refWrite.locator(".v")).toHaveText("5,037");
  // Published with a 5,000 msg/s throttle over 120 s: one second of writes at t=0 is +0.83%. Each known effect's
  // whole text is said once under the table, with the rows it moves; the cells name it with its number.
  const notes = page.getByTestId("effects-notes");
  await expect(notes).toContainText(
    "start-up burst: the tool's throttle lets one second of writes (5,000) out at t=0, so over 120 s its rates read about +0.83%",
  );
  await expect(notes).toContainText("rate divisor: totals are divided by the configured 120 s");
  await expect(notes.getByText("start-up burst: the tool's throttle")).toHaveCount(1);
  await expect(refWrite.getByTestId(`effects-writePerSec-${REF}`)).toContainText(/start-up burst \[\d+\]/);
  await expect(refWrite.getByTestId(`effects-writePerSec-${REF}`)).toContainText(/rate divisor \[\d+\]/);
  // The import is the baseline: its own divisor shows under its value, and again, as the baseline's, beside the reference's delta.
  await expect(notes).toContainText("rate divisor: totals are divided by the configured 30 s");
  await expect(page.getByTestId(`effects-writePerSec-${id}`)).toContainText(/rate divisor \[\d+\]/);
  await expect(refWrite.getByTestId(`effects-writePerSec-${REF}`)).toContainText(/baseline: rate divisor \[\d+\]/);
  // Tails move; medians do not.
  await expect(page.getByTestId(`effects-e2e.p99-${REF}`)).toContainText("no warm-up");
  await expect(page.getByTestId(`effects-e2e.p50-${REF}`)).toHaveCount(0);

  const md = await (await request.get(`/api/compare?ids=${REF},${id}&base=${id}&format=md`)).text();
  expect(md).toContain("## Known effects beside the deltas");
});

test("other studies' published results: listed per study, shown with Run this here, and compared as items", async ({ page, request }) => {
  const body = await (await request.get("/api/references")).json();
  const published: { id: string; study: string; title: string; measuredThrough?: string; compareKey: string }[] = body.published;
  await page.goto("/references");
  await expect(page.getByTestId("references-table").locator("tr[data-ref]")).toHaveCount(6);
  await expect(page.locator("[data-study]")).toHaveCount(new Set(published.map((p) => p.study)).size);
  await expect(page.locator("[data-published]")).toHaveCount(published.length);
  test.skip(published.length === 0, "no registered workload publishes another study's results yet");

  const p = published[0];
  const card = page.getByTestId(`published-${p.id}`);
  await expect(card).toContainText(p.title);
  if (p.measuredThrough) await expect(card.getByTestId("measured-through")).toHaveText(p.measuredThrough);
  await card.getByRole("link", { name: "Details" }).click();
  await expect(page).toHaveURL(new RegExp(`/references/${p.id}$`));
  await expect(page.getByTestId("fit-warnings")).toBeVisible();
  await page.getByTestId(`run-here-${p.id}`).click();
  // Its workload's preset of the same id when there is one, else the form with its config; either way its fit.
  await expect(page).toHaveURL(new RegExp(`/runs/new\\?(preset|published)=${p.id}$`));
  await expect(page.getByTestId("fit-warnings")).toBeVisible();

  await page.goto(`/compare?ids=${p.compareKey}`);
  const chip = page.getByTestId("selected-items").locator(`[data-key='${p.compareKey}']`);
  await expect(chip.locator("[data-badge='published']")).toBeVisible();
});
