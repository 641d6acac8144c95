// The list of runs: filters, sortable headers, checkboxes and "Compare selected".
import { expect, type Locator, type Page } from "@playwright/test";

export class RunsListPage {
  constructor(readonly page: Page) {}

  async open(query = "") {
    await this.page.goto(`/runs${query}`);
    await expect(this.page.getByRole("heading", { name: "Runs", exact: true })).toBeVisible();
  }

  row(id: string): Locator {
    return this.page.locator(`tr[data-run-id="${id}"]`);
  }

  rows(): Locator {
    return this.page.getByTestId("runs-table").locator("tbody tr");
  }

  async filterWorkload(v: "" | "pubsub" | "queue") {
    await this.page.getByLabel("Filter by workload").selectOption(v);
  }

  async filterStatus(v: string) {
    await this.page.getByLabel("Filter by status").selectOption(v);
  }

  async sortBy(column: string) {
    await this.page.getByRole("button", { name: column }).click();
  }

  async select(id: string) {
    await this.page.getByRole("checkbox", { name: `Select run ${id}` }).check();
  }
}
