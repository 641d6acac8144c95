// The New run form, as a user sees it: labelled fields, a preset list, a target, a Launch button.
import { expect, type Locator, type Page } from "@playwright/test";

export class NewRunPage {
  constructor(readonly page: Page) {}

  async open(query = "") {
    await this.page.goto(`/runs/new${query}`);
    await expect(this.page.getByRole("heading", { name: "New run" })).toBeVisible();
  }

  field(label: string): Locator {
    return this.page.getByRole("spinbutton", { name: label });
  }

  async choosePreset(label: string) {
    await this.page.getByLabel("Preset").selectOption({ label });
  }

  async chooseWorkload(kind: "pub/sub" | "queue") {
    await this.page.getByRole("radiogroup", { name: "Workload" }).getByText(kind, { exact: true }).click();
  }

  /** Types into each field (by its label) and leaves it, as a user tabbing through the form. */
  async fill(values: Record<string, string | number>) {
    for (const [label, v] of Object.entries(values)) {
      const f = this.field(label);
      await f.fill(String(v));
      await f.blur();
    }
  }

  connections(): Locator {
    return this.page.getByTestId("connections");
  }

  async launch(): Promise<string> {
    await this.page.getByRole("button", { name: "Launch run" }).click();
    await this.page.waitForURL(/\/runs\/r_[0-9a-f]+$/, { timeout: 20_000 });
    return new URL(this.page.url()).pathname.split("/").pop()!;
  }
}
