import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { FitWarningList } from "@/components/compare/FitWarnings";
import { Derived, PublishedActions, PublishedCaveats, PublishedFacts, PublishedFigures } from "@/components/compare/PublishedBits";
import { Caveats, Headline, ms, RefActions } from "@/components/compare/RefBits";
import { fmtNum } from "@/lib/compare/format";
import { publishedById, publishedConfig, publishedLabel, publishedResults, type PublishedResult } from "@/lib/references/published";
import {
  fitWarnings,
  referenceById,
  referenceLabel,
  REFERENCES,
  referenceSummary,
  referenceWorkload,
  sourceUrl,
  type FitWarning,
  type Reference,
} from "@/lib/references/references";
import { readsPerGroup } from "@/lib/measurement/operations";
import { workloadDefinition, type WorkloadConfig } from "@/lib/workloads/config";
import { serverFacts } from "@/lib/references/fit";
import { readEnv } from "@/lib/env";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const r = referenceById(id);
  const p = r ? undefined : publishedById(id);
  return { title: r ? `${referenceLabel(r)} (published) · pg-broker-bench` : p ? `${publishedLabel(p)} (published) · pg-broker-bench` : "Reference not found" };
}

async function fit(config: WorkloadConfig, r?: Reference): Promise<{ warnings: FitWarning[] } | { error: string }> {
  const env = readEnv();
  const url = env.TARGET_DATABASE_URL;
  if (!url) return { error: "no default target is configured" };
  try {
    const facts = await serverFacts(url, { targetIsEmbedded: env.TARGET_IS_EMBEDDED, timeoutMs: 3000 });
    return { warnings: fitWarnings(config, facts, r) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

function FitPanel({ f }: { f: { warnings: FitWarning[] } | { error: string } }) {
  return (
    <div className="fit" data-testid="fit-warnings">
      {"error" in f ? (
        <p className="hint">Could not check whether this fits the default target: {f.error}</p>
      ) : f.warnings.length ? (
        <FitWarningList heading="Running this here (default target):" warnings={f.warnings} />
      ) : (
        <p className="hint">This config fits the default target.</p>
      )}
    </div>
  );
}

const Lat = ({ t }: { t: { p50: { raw: string }; p95: { raw: string }; p99: { raw: string } } }) => (
  <>
    {t.p50.raw} / {t.p95.raw} / {t.p99.raw}
  </>
);

export default async function ReferencePage({ params }: Props) {
  const { id } = await params;
  const r = referenceById(id);
  if (!r) {
    const p = publishedById(id);
    if (!p) notFound();
    return <PublishedPage p={p} />;
  }
  const f = await fit(referenceWorkload(r), r);
  return (
    <div className="stack">
      <section className="panel ref-card">
        <div className="spread">
          <h1 style={{ margin: 0 }}>{referenceLabel(r)}</h1>
          <span className="badge neutral">published</span>
        </div>
        <p style={{ margin: 0 }}>
          <strong>Measured:</strong> {referenceSummary(r)} <span className="muted">(&ldquo;{r.title}&rdquo;)</span>
        </p>
        <Headline r={r} />
        <RefActions r={r} details={false} />
        <FitPanel f={f} />
      </section>
      <PublishedRuns r={r} />
      <div className="grid grid-2">
        <Hardware r={r} />
        <ClientConfig r={r} />
      </div>
      <PostgresPanel r={r} />
      <CaveatsPanel r={r} />
      <SourcesPanel r={r} />
    </div>
  );
}

/** The published headline beside each run's numbers, as the tool printed them. */
function PublishedRuns({ r }: { r: Reference }) {
  const h = r.headline;
  return (
    <section className="panel flush">
      <div className="section-head">
        <h2>Published headline and per-run numbers</h2>
        <span className="hint">{h.aggregation}</span>
      </div>
      <div className="table-wrap">
        <table className="data compact" data-testid="runs-table">
          <thead>
            <tr>
              <th></th>
              <th className="num">Write msg/s</th>
              <th className="num">Read msg/s</th>
              <th className="num">Write p50 / p95 / p99</th>
              <th className="num">Read p50 / p95 / p99</th>
              <th className="num">E2E p50 / p95 / p99</th>
              <th className="num">Writes / errors</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">Headline (published)</th>
              <td className="num">{h.writeAsPublished ?? fmtNum(h.writeMsgPerSec)}</td>
              <td className="num">{h.readAsPublished ?? fmtNum(h.readMsgPerSec)}</td>
              {(["write", "read", "e2e"] as const).map((m) => (
                <td key={m} className="num">
                  {ms(h.latencyMs[m].p50)} / {ms(h.latencyMs[m].p95)} / {ms(h.latencyMs[m].p99)}
                </td>
              ))}
              <td className="num">—</td>
            </tr>
            {r.runs.map((run) => (
              <tr key={run.run}>
                <th scope="row">
                  Run {run.run}{" "}
                  <a className="small" href={`${sourceUrl(run.source)}#L${run.sourceLines[0]}-L${run.sourceLines[1]}`}>
                    log
                  </a>
                </th>
                <td className="num">{fmtNum(run.writes.msgPerSec)}</td>
                <td className="num">{fmtNum(run.reads.msgPerSec)}</td>
                <td className="num mono">
                  <Lat t={run.latencyMs.write} />
                </td>
                <td className="num mono">
                  <Lat t={run.latencyMs.read} />
                </td>
                <td className="num mono">
                  <Lat t={run.latencyMs.e2e} />
                </td>
                <td className="num">
                  {fmtNum(run.writes.total)} / {fmtNum(run.writes.errors)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="hint" style={{ padding: "0 16px 12px", margin: 0 }}>
        Per-run latencies are the Go durations the tool printed (HDR histogram bucket values).{" "}
        {readsPerGroup(r.workload) ? "Read and e2e are from its 'Aggregate Across All Groups' block." : ""}
      </p>
    </section>
  );
}

/** The server, the client and the replicas the author ran on. */
function Hardware({ r }: { r: Reference }) {
  return (
    <section className="panel">
      <h2>Hardware</h2>
      <dl className="ref-facts">
        <dt>Server</dt>
        <dd>
          AWS {r.server.instance}: {r.server.vcpu} vCPU, {r.server.ramGib} GiB, {r.server.disk}, {r.server.os}, {r.server.az}
        </dd>
        <dt>CPU used</dt>
        <dd>{r.server.cpuUsage}</dd>
        <dt>Client</dt>
        <dd>
          {r.client.instance} ({r.client.az})
        </dd>
        {r.replicas.map((x) => (
          <FragmentRow key={x.name} k={`Replica ${x.name}`} v={`${x.instance}, ${x.disk}, ${x.role}, ${x.az}`} />
        ))}
        {r.replication && <FragmentRow k="Replication" v={`${r.replication.type}; synchronous_standby_names = ${r.replication.synchronousStandbyNames}`} />}
        {[...r.server.notes, ...r.client.notes].map((n, i) => (
          <FragmentRow key={i} k="Note" v={n} />
        ))}
      </dl>
    </section>
  );
}

/** The tool's config and its command line. */
function ClientConfig({ r }: { r: Reference }) {
  return (
    <section className="panel">
      <h2>Client config</h2>
      <dl className="ref-facts">
        {clientRows(r).map(([k, v]) => (
          <FragmentRow key={k} k={k} v={v} />
        ))}
        <FragmentRow k="Duration" v={`${r.config.durationSeconds} s × ${r.config.runs} run${r.config.runs > 1 ? "s" : ""}`} />
        {r.config.notes.map((n, i) => (
          <FragmentRow key={i} k="Note" v={n} />
        ))}
      </dl>
      <pre className="cmd">{r.command.replace(/\s+/g, " ")}</pre>
    </section>
  );
}

/** The server's version, the settings the author changed, the tables' and the kernel's. */
function PostgresPanel({ r }: { r: Reference }) {
  const settings = Object.entries(r.postgres.settingsChanged);
  return (
    <section className="panel">
      <h2>Postgres {r.postgres.version}</h2>
      <p style={{ marginTop: 0 }}>{r.postgres.settings}</p>
      {settings.length > 0 && (
        <dl className="settings-cols" data-testid="settings-changed">
          {settings.map(([k, v]) => (
            <div key={k}>
              <dt className="mono">{k}</dt>
              <dd className="mono">{v}</dd>
            </div>
          ))}
        </dl>
      )}
      {r.postgres.tableSettings.length > 0 && (
        <ul className="plain small" style={{ marginTop: 8 }}>
          {r.postgres.tableSettings.map((t, i) => (
            <li key={i}>{t}</li>
          ))}
        </ul>
      )}
      {r.postgres.kernel && (
        <p className="small">
          Kernel:{" "}
          {Object.entries(r.postgres.kernel)
            .map(([k, v]) => `${k} = ${v}`)
            .join("; ")}
        </p>
      )}
      {r.postgres.notes.map((n, i) => (
        <p key={i} className="hint">
          {n}
        </p>
      ))}
    </section>
  );
}

/** What the author documented and what the tool's code or logs show. */
function CaveatsPanel({ r }: { r: Reference }) {
  return (
    <section className="panel">
      <h2>Caveats</h2>
      <p className="hint" style={{ marginTop: 0 }}>
        <span className="badge warn">author</span> documented by the author; <span className="badge neutral">found</span> found in the tool&rsquo;s code or
        logs.
      </p>
      <Caveats caveats={r.caveats} />
      {r.notes.map((n, i) => (
        <p key={i} className="small muted">
          {n}
        </p>
      ))}
    </section>
  );
}

/** Where the figures come from, and the other scenarios. */
function SourcesPanel({ r }: { r: Reference }) {
  return (
    <section className="panel">
      <h2>Sources</h2>
      <ul className="plain">
        {[r.source, ...r.otherSources].map((s) => (
          <li key={s}>
            <a href={sourceUrl(s)}>{s}</a>
          </li>
        ))}
      </ul>
      <p className="small">
        Other scenarios:{" "}
        {REFERENCES.filter((x) => x.id !== r.id).map((x, i) => (
          <span key={x.id}>
            {i ? ", " : ""}
            <Link href={`/references/${x.id}`}>{referenceLabel(x)}</Link>
          </span>
        ))}
      </p>
    </section>
  );
}

/**
 * The scenario's client config as its workload's field table names it: each field the scenario sets, in table
 * order, with its unit; a per-group reader count with the groups it multiplies.
 */
function clientRows(r: Reference): [string, string][] {
  const c = r.config as Record<string, unknown>;
  const rows: [string, string][] = [];
  for (const f of workloadDefinition(r.workload)?.fields ?? []) {
    const v = c[f.name];
    if (v === null || v === undefined || f.name === "durationSeconds") continue;
    const text = typeof v === "boolean" ? (v ? "yes" : "no") : typeof v === "number" ? `${fmtNum(v)}${f.unit ? ` ${f.unit}` : ""}` : String(v);
    rows.push([f.label, f.name === "readers" && readsPerGroup(r.workload) ? `${text} × ${r.config.consumerGroups} groups = ${r.config.readersTotal}` : text]);
  }
  return rows;
}

function FragmentRow({ k, v }: { k: string; v: string }) {
  return (
    <>
      <dt>{k}</dt>
      <dd>{v}</dd>
    </>
  );
}

/** Another study's published result: what it ran and printed, how, what we derived, its caveats; "Run this
 *  here" with its config's fit on the default target. */
async function PublishedPage({ p }: { p: PublishedResult }) {
  const cfg = publishedConfig(p);
  const f = cfg.ok ? await fit(cfg.config) : { error: cfg.error };
  const others = publishedResults().filter((x) => x.study === p.study && x.id !== p.id);
  return (
    <div className="stack">
      <section className="panel ref-card" data-published={p.id}>
        <div className="spread">
          <h1 style={{ margin: 0 }}>{publishedLabel(p)}</h1>
          <span className="badge neutral">published</span>
        </div>
        <PublishedFigures p={p} />
        <PublishedActions p={p} details={false} />
        <FitPanel f={f} />
      </section>
      <div className="grid grid-2">
        <section className="panel">
          <h2>How it was measured</h2>
          <PublishedFacts p={p} />
        </section>
        <section className="panel">
          <h2>Config here</h2>
          <p className="hint" style={{ marginTop: 0 }}>
            The config that reproduces it as far as the study says; &ldquo;Run this here&rdquo; opens the form with it.
          </p>
          <pre className="cmd">{JSON.stringify(cfg.ok ? cfg.config : p.config, null, 2)}</pre>
        </section>
      </div>
      <section className="panel">
        <Derived p={p} />
        <h2>Caveats</h2>
        <PublishedCaveats p={p} />
        {others.length > 0 && (
          <p className="small">
            Other results of this study:{" "}
            {others.map((x, i) => (
              <span key={x.id}>
                {i ? ", " : ""}
                <Link href={`/references/${x.id}`}>{x.title}</Link>
              </span>
            ))}
          </p>
        )}
      </section>
    </div>
  );
}
