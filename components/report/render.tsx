// An exported report as one HTML file: the page (./RunReport.tsx, ./CompareReport.tsx) rendered to static markup with
// its stylesheet inline (system fonts), no <script>, no URL that loads anything, and a Content-Security-Policy that
// forbids every fetch should a future component slip one in (default-src 'none': only the inline styles apply). It
// opens from a disk, offline, with scripts disabled. Rendered by react-dom/server in plain Node: the CLI calls it
// directly; the app's route handlers reach it through lib/report/renderer.ts (Next's server layer refuses
// react-dom/server and turns "use client" modules into references, so it cannot render these components itself).
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { PRODUCT_VERSION } from "@/lib/env";
import { REPORT_CSS } from "./report-css";
import { type RunReportInput, RunReport, utc } from "./RunReport";

export type { RunReportInput } from "./RunReport";

/** Who wrote the file and when, printed at its foot. */
export interface ReportMeta {
  exportedAt: string;
}

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

function documentOf(title: string, meta: ReportMeta, body: ReactNode): string {
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
        <style dangerouslySetInnerHTML={{ __html: REPORT_CSS }} />
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
  return `<!DOCTYPE html>\n${html}\n`;
}

/** A run's report (its page once final) as one HTML document. */
export function renderRunReport(input: RunReportInput, meta: ReportMeta): string {
  return documentOf(`${input.run.workload} run ${input.run.id}`, meta, <RunReport input={input} />);
}
