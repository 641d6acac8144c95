// Which Chromium the browser tests and scripts/screenshots.ts launch: Playwright's own where it is installed (a
// user's machine); else the system's (CI here installs Debian's chromium, as Playwright's browser download is not
// possible on this machine). undefined means Playwright's own.
import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";

export function browserExecutable(): string | undefined {
  try {
    if (existsSync(chromium.executablePath())) return undefined;
  } catch {
    /* not installed */
  }
  for (const p of ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]) if (existsSync(p)) return p;
  return undefined;
}
