// Where the app's route handlers find the report renderer (components/report/render.tsx). Next's server layer, where
// route handlers are bundled, refuses react-dom/server and turns "use client" modules (the verdict panel the report
// reuses) into client references, so the handlers cannot render the report's components themselves. The process
// that serves the app (scripts/serve-next.ts, plain Node with tsx) puts a loader of the renderer here at start, outside
// the bundle; the handlers take it from the one global both share. The CLI and the tests import the renderer directly.
import type * as Render from "../../components/report/render";

export type ReportRenderer = typeof Render;

const SLOT = Symbol.for("pg-broker-bench.report-renderer");
type Slot = { [SLOT]?: () => Promise<ReportRenderer> };

/** Called once by the process serving the app (and by tests that call route handlers). */
export function provideReportRenderer(load: () => Promise<ReportRenderer>): void {
  (globalThis as Slot)[SLOT] = load;
}

/** The renderer; an error naming why when this process was not started by scripts/serve-next.ts (npm start). */
export async function reportRenderer(): Promise<ReportRenderer> {
  const load = (globalThis as Slot)[SLOT];
  if (!load)
    throw new Error("the report renderer is not loaded in this process: the app renders reports only when served by npm start (scripts/serve-next.ts)");
  return load();
}
