// Pieces of the references pages for other studies' published results (lib/references/published.ts; server components):
// what the study ran and printed, how it timed it, what we derived (labelled as ours) and its caveats. Styled
// by compare.css, which the pages import (through RefBits), so these render in a unit test too.
import Link from "next/link";
import { fmtLat, fmtNum } from "@/lib/compare/format";
import { publishedByStudy, publishedLabel, STUDIES, type PublishedResult } from "@/lib/references/published";
import { presetById, workloadDefinition } from "@/lib/workloads/config";

/** An operation's label and unit as its workload declares it ("get", "req"); "total" is the study's aggregate. */
function opOf(p: PublishedResult, name: string): { label: string; unit: string } {
  const o = workloadDefinition(p.config.kind)?.metrics.operations.find((x) => x.name === name);
  if (o) return { label: o.label, unit: o.unit };
  return { label: name === "total" ? "all operations" : name, unit: "op" };
}

const STATS = ["p50", "p95", "p99", "avg", "max"] as const;

/** The figures as published: rates by operation, then each latency's printed percentiles and mean. */
export function PublishedFigures({ p }: { p: PublishedResult }) {
  const lat = Object.entries(p.latencyMs ?? {});
  return (
    <div className="kpis">
      {Object.entries(p.rates ?? {}).map(([op, v]) => {
        const o = opOf(p, op);
        return (
          <div className="kpi" key={`r-${op}`}>
            <span className="v">
              {fmtNum(v)} {o.unit}/s
            </span>
            <span className="k">
              {o.label}
              {p.totals?.[op] !== undefined ? ` · ${fmtNum(p.totals[op], 0)} in total` : ""}
            </span>
          </div>
        );
      })}
      {lat.map(([m, l]) => {
        const shown = STATS.filter((k) => l[k] !== undefined);
        return (
          <div className="kpi" key={`l-${m}`}>
            <span className="v">{shown.map((k) => fmtLat(l[k])).join(" / ")}</span>
            <span className="k">
              {opOf(p, m).label} {shown.join(" / ")}
            </span>
          </div>
        );
      })}
    </div>
  );
}

/** Where it ran, under what load, how its latencies were timed and what the study found limiting. */
export function PublishedFacts({ p }: { p: PublishedResult }) {
  return (
    <dl className="ref-facts">
      <dt>Study</dt>
      <dd>{STUDIES[p.study].title}</dd>
      <dt>Server</dt>
      <dd>{p.server}</dd>
      <dt>Load model</dt>
      <dd>{p.loadModel}</dd>
      <dt>Measured through</dt>
      <dd data-testid="measured-through">{p.measuredThrough ?? "as this product measures: per operation, client → Postgres"}</dd>
      {p.durationSeconds !== undefined && (
        <>
          <dt>Duration</dt>
          <dd>{p.durationSeconds} s</dd>
        </>
      )}
      {p.bottleneck && (
        <>
          <dt>Bottleneck</dt>
          <dd>{p.bottleneck} (as the study reports)</dd>
        </>
      )}
      <dt>Source</dt>
      <dd>{/^https?:\/\//.test(p.source) ? <a href={p.source}>{p.source}</a> : p.source}</dd>
    </dl>
  );
}

/** Facts we computed from the published ones: never shown as the study's. */
export function Derived({ p }: { p: PublishedResult }) {
  if (!p.derived?.length) return null;
  return (
    <div data-testid="derived">
      <h3>Derived by us</h3>
      <p className="hint" style={{ marginTop: 0 }}>
        Arithmetic on the published figures, not published by the study.
      </p>
      <ul className="plain small">
        {p.derived.map((d) => (
          <li key={d}>{d}</li>
        ))}
      </ul>
    </div>
  );
}

export function PublishedCaveats({ p }: { p: PublishedResult }) {
  return (
    <ul className="caveats" data-testid="caveats">
      {p.caveats.map((c) => (
        <li key={c.text}>
          <span className={`badge ${c.by === "author" ? "warn" : "neutral"}`}>{c.by}</span> {c.text}
        </li>
      ))}
    </ul>
  );
}

/** Details, Compare and Run this here for a published result of any study (`ref:<id>` in compare);
 *  `runHref`: the New run form with its config. */
export function ResultActions({ id, runHref, details = true }: { id: string; runHref: string; details?: boolean }) {
  return (
    <div className="row">
      {details && (
        <Link className="btn" href={`/references/${id}`}>
          Details
        </Link>
      )}
      <Link className="btn" href={`/compare?ids=ref:${id}`} data-testid={`compare-${id}`}>
        Compare
      </Link>
      <Link className="btn primary" href={runHref} data-testid={`run-here-${id}`}>
        Run this here
      </Link>
    </div>
  );
}

/** "Run this here" opens the preset that reproduces it when its workload has one of the same id (the form then
 *  names it and offers its short window), else the form with its config. */
export const PublishedActions = ({ p, details = true }: { p: PublishedResult; details?: boolean }) => (
  <ResultActions id={p.id} runHref={presetById(p.id) ? `/runs/new?preset=${p.id}` : `/runs/new?published=${p.id}`} details={details} />
);

/** One published result as a card of /references. */
export function PublishedCard({ p }: { p: PublishedResult }) {
  return (
    <section id={p.id} className="panel ref-card" data-published={p.id} data-testid={`published-${p.id}`}>
      <div className="spread">
        <h3 style={{ margin: 0 }}>{publishedLabel(p)}</h3>
        <span className="badge neutral">published</span>
      </div>
      <PublishedFigures p={p} />
      <PublishedFacts p={p} />
      <Derived p={p} />
      {p.caveats.length > 0 && (
        <div>
          <h3>Caveats</h3>
          <PublishedCaveats p={p} />
        </div>
      )}
      <PublishedActions p={p} />
    </section>
  );
}

/** /references' sections of the other studies: every registered workload's published results, by study. */
export function PublishedStudies() {
  return (
    <>
      {publishedByStudy().map((s) => (
        <section key={s.study} className="stack" aria-labelledby={`study-${s.study}`} data-study={s.study}>
          <div className="panel">
            <h2 id={`study-${s.study}`} style={{ margin: 0 }}>
              {s.title}
            </h2>
            <p className="small" style={{ marginBottom: 0 }}>
              The figures the study published, each beside the workload here that reproduces it, always labelled{" "}
              <span className="badge neutral">published</span>. Its latencies may be timed another way than ours (see &ldquo;measured through&rdquo;); what we
              derived from its figures is labelled as ours.
            </p>
            {s.results.length > 1 && (
              <div className="row" style={{ marginTop: 8 }}>
                <Link className="btn" href={`/compare?ids=${s.results.map((p) => `ref:${p.id}`).join(",")}`}>
                  Compare them
                </Link>
              </div>
            )}
          </div>
          <div className="ref-grid">
            {s.results.map((p) => (
              <PublishedCard key={p.id} p={p} />
            ))}
          </div>
        </section>
      ))}
    </>
  );
}
