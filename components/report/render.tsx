// An exported report as one HTML file: the page (./RunReport.tsx, ./CompareReport.tsx) rendered to static markup with
// its stylesheet inline (system fonts), no <script>, no URL that loads anything, and a Content-Security-Policy that
// forbids every fetch should a future component slip one in (default-src 'none': only the inline styles apply). It
// opens from a disk, offline, with scripts disabled. Rendered by react-dom/server in plain Node: the CLI calls it
// directly; the app's route handlers reach it through lib/report/renderer.ts (Next's server layer refuses
// react-dom/server and turns "use client" modules into references, so it cannot render these components itself).
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Comparison } from "@/lib/compare/compare";
import { PRODUCT_VERSION } from "@/lib/env";
import { PROJECT_ROOT } from "@/lib/paths";
import type { OtherCeiling } from "@/lib/ceiling/answer";
import type { CeilingView } from "@/lib/ceiling/view";
import type { AbSlot } from "@/lib/compare/ab-order";
import type { AbStats } from "@/lib/compare/ab-stats";
import type { RunView } from "@/lib/runs/view";
import { AbView } from "../run/AbView";
import { CeilingReport } from "./CeilingReport";
import { CompareReport } from "./CompareReport";
import { REPORT_CSS } from "./report-css";
import { type RunReportInput, RunReport, utc } from "./RunReport";

export type { RunReportInput } from "./RunReport";

/** Who wrote the file and when, printed at its foot. */
export interface ReportMeta {
  exportedAt: string;
}

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/** The compare page's own stylesheet (its tables' highlights, swatches), read once; its controls hidden in a file. */
let compareCss: string | undefined;
const compareStyles = () =>
  (compareCss ??= `${readFileSync(path.join(PROJECT_ROOT, "components/compare/compare.css"), "utf8")}\n.baseline-pick,.section-head .toggle{display:none}`);

function documentOf(title: string, meta: ReportMeta, body: ReactNode, extraCss = ""): string {
  const html = renderToStaticMarkup(
    <html lang="en">
      {/* biome-ignore lint/style/noHeadElement: a whole document rendered outside Next, not a Next page */}
      <head>
        <meta charSet="utf-8" />
        <meta httpEquiv="Content-Security-Policy" content={CSP} />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="generator" content={`pg-broker-bench ${PRODUCT_VERSION}`} />
        <title>{title}</title>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the report's own constant stylesheet */}
        <style dangerouslySetInnerHTML={{ __html: REPORT_CSS + extraCss }} />
      </head>
      <body>
        <header className="topbar">
          <div className="topbar-inner">
            <span className="brand">
              pg-broker-bench <span>· can Postgres be your broker?</span>
            </span>
            <span className="small">exported report</span>
          </div>
        </header>
        <main>
          <h1>{title}</h1>
          {body}
          <p className="hint" data-testid="report-foot">
            Exported by pg-broker-bench {PRODUCT_VERSION} on {utc(meta.exportedAt)}. This file is the whole report: it loads nothing and runs no script; the
            charts are drawn in it, the numbers are those the app showed.
          </p>
        </main>
      </body>
    </html>,
  );
  // The pages' item names link within the app (/runs/…, /compare/imports/…), which a file cannot reach: a report
  // holds no link, so an anchor keeps its text and loses its address.
  return `<!DOCTYPE html>\n${html.replace(/<a\b([^>]*?)\shref="[^"]*"/g, "<a$1")}\n`;
}

/** A run's report (its page once final) as one HTML document. */
export function renderRunReport(input: RunReportInput, meta: ReportMeta): string {
  return documentOf(input.run.name ?? `${input.run.workload} run ${input.run.id}`, meta, <RunReport input={input} />);
}

/** A comparison's report (the compare page with the baseline it was exported with) as one HTML document. */
export function renderCompareReport(cmp: Comparison, meta: ReportMeta): string {
  const title = `Comparison of ${cmp.items.length} ${cmp.items.length === 1 ? "item" : "items"}`;
  return documentOf(title, meta, <CompareReport cmp={cmp} />, compareStyles());
}

/** A ceiling search's report (its page, its curves drawn) as one HTML document; the page's controls hidden. */
export function renderCeilingReport(data: { view: CeilingView; others: OtherCeiling[]; command: string }, meta: ReportMeta): string {
  const title = `${data.view.workload} ceiling search ${data.view.id}`;
  return documentOf(title, meta, <CeilingReport {...data} />, '[data-testid="ceiling-others"] input,[data-testid="ceiling-report"] button{display:none}');
}

/** An A/B set's report (its page: the runs in their balanced order, each measure with its interval) as one HTML document. */
export function renderAbReport(data: { groupId: string | null; slots: AbSlot[]; views: (RunView | null)[]; stats: AbStats | null }, meta: ReportMeta): string {
  const title = `Baseline and modded${data.groupId ? ` ${data.groupId}` : ""}`;
  return documentOf(
    title,
    meta,
    <div data-testid="ab-report">
      <AbView groupId={data.groupId} slots={data.slots} initial={data.views} stats={data.stats} />
    </div>,
  );
}
