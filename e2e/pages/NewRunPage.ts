// The New run form, as a user sees it: labelled fields, a preset list, a target, the total time and a
// Launch button (with an in-page confirmation for runs longer than 5 minutes).
import { expect, type Locator, type Page } from "@playwright/test";

export class NewRunPage {
  constructor(readonly page: Page) {}

  async open(query = "") {
    await this.page.goto(`/runs/new${query}`);
    await expect(this.page.getByRole("heading", { name: "New run" })).toBeVisible();
  }

  /** A typed field, by its label (text inputs: the form checks exactly the text the user sees). */
  field(label: string): Locator {
    return this.page.getByRole("textbox", { name: label });
  }

  /** A value the form derives instead of asking (pub/sub readers per group follow partitions). */
  derived(name: string): Locator {
    return this.page.getByTestId(`derived-${name}`);
  }

  totalTime(): Locator {
    return this.page.getByTestId("total-time");
  }

  fitWarnings(): Locator {
    return this.page.getByTestId("fit-warnings");
  }

  /** The Length choice a long published preset offers (short window, or the full published one). */
  windowChoice(): Locator {
    return this.page.getByTestId("window-choice");
  }

  confirmation(): Locator {
    return this.page.getByRole("alertdialog");
  }

  async choosePreset(label: string) {
    await this.page.getByLabel("Preset").selectOption({ label });
  }

  /** The workload picker (a radio group of every workload, grouped by study). */
  workloads(): Locator {
    return this.page.getByRole("radiogroup", { name: "Workload" });
  }

  /** Picks a workload by its title ("pub/sub", "queued workflows"), clicking it as a user does. */
  async chooseWorkload(title: string) {
    await this.workloads().getByText(title, { exact: true }).click();
  }

  /** The line under the preset list: the preset's description, "(edited)" once a field was changed. */
  presetNote(): Locator {
    return this.page
      .locator(".fieldbox")
      .filter({ has: this.page.locator("#preset") })
      .locator(".hint");
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
    return this.launched();
  }

  /** Launch a run longer than 5 minutes: Launch, then the confirmation's "Yes, launch…". */
  async launchLong(): Promise<string> {
    await this.page.getByRole("button", { name: "Launch run" }).click();
    await this.confirmation()
      .getByRole("button", { name: /^Yes, launch/ })
      .click();
    return this.launched();
  }

  private async launched(): Promise<string> {
    await this.page.waitForURL(/\/runs\/r_[0-9a-f]+$/, { timeout: 20_000 });
    return new URL(this.page.url()).pathname.split("/").pop()!;
  }
}
