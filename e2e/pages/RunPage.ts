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

  /** The charts' data, as the page exposes it: how many samples, first/last seq, duplicates, worst arrival lag. */
  async stream() {
    const el = this.page.getByTestId("run-stream");
    const attr = async (n: string) => (await el.getAttribute(n)) ?? "";
    return {
      count: Number(await attr("data-count")),
      first: (await attr("data-first-seq")) === "" ? null : Number(await attr("data-first-seq")),
      last: (await attr("data-last-seq")) === "" ? null : Number(await attr("data-last-seq")),
      dupes: Number(await attr("data-dupes")),
      maxLagMs: (await attr("data-max-lag-ms")) === "" ? null : Number(await attr("data-max-lag-ms")),
    };
  }

  async waitForSamples(atLeast: number, timeout = 30_000) {
    await expect.poll(async () => (await this.stream()).count, { timeout, message: `at least ${atLeast} samples on the chart` }).toBeGreaterThanOrEqual(atLeast);
  }

  /** The drawn path of the write line in the throughput chart (changes whenever a point is added). */
  async throughputPath(): Promise<string> {
    return (await this.page.getByTestId("chart-throughput").locator("path.recharts-curve").first().getAttribute("d")) ?? "";
  }

  liveWriteRate(): Locator {
    return this.page.getByTestId("live-write-rate");
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
