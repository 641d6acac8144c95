// One run's page: status, phase, progress, charts, the newest numbers, and the finished summary.
import { expect, type Locator, type Page } from "@playwright/test";

export class RunPage {
  constructor(readonly page: Page) {}

  async open(id: string) {
    await this.page.goto(`/runs/${id}`);
    await expect(this.page.getByTestId("run-page")).toBeVisible();
  }

  status(): Locator {
    return this.page.getByTestId("run-status");
  }

  /** The charts' data, as the page exposes it, read in one go (the page updates every second):
   *  how many samples, first/last seq, seqs missing in between, duplicates received, worst arrival lag. */
  async stream() {
    return this.page.getByTestId("run-stream").evaluate((el: HTMLElement) => {
      const d = el.dataset;
      const num = (v: string | undefined) => (v === undefined || v === "" ? null : Number(v));
      return {
        count: Number(d.count),
        first: num(d.firstSeq),
        last: num(d.lastSeq),
        missing: d.missing ?? "",
        dupes: Number(d.dupes),
        maxLagMs: num(d.maxLagMs),
      };
    });
  }

  async waitForSamples(atLeast: number, timeout = 30_000) {
    await expect
      .poll(async () => (await this.stream()).count, { timeout, message: `at least ${atLeast} samples on the chart` })
      .toBeGreaterThanOrEqual(atLeast);
  }

  /** The drawn path of the write line in the throughput chart (changes whenever a point is added). */
  async throughputPath(): Promise<string> {
    return (await this.page.getByTestId("chart-throughput").locator("path.recharts-curve").first().getAttribute("d")) ?? "";
  }

  async waitForStatus(status: string | RegExp, timeout = 60_000) {
    await expect(this.page.getByTestId("run-page")).toHaveAttribute("data-status", status, { timeout });
  }

  async cancel() {
    await this.page.getByRole("button", { name: "Cancel run" }).click();
  }

  verification(): Locator {
    return this.page.getByTestId("verification");
  }
}
