import type { Metadata } from "next";
import Link from "next/link";
import { PublishedStudies } from "@/components/compare/PublishedBits";
import { publishedByStudy } from "@/lib/references/published";
import { Caveats, Headline, ms, RefActions } from "@/components/compare/RefBits";
import { fmtNum } from "@/lib/compare/format";
import {
  REFERENCE_ARTICLE_TITLE,
  REFERENCE_ARTICLE_URL,
  REFERENCE_COMMIT,
  REFERENCE_REPO,
  referenceLabel,
  REFERENCES,
  referenceSummary,
  sourceUrl,
} from "@/lib/references/references";
import { workloadDefinitions } from "@/lib/workloads/config";

export const metadata: Metadata = { title: "Published results · pg-broker-bench" };

export default function ReferencesPage() {
  // One "compare them all" link per workload that has published scenarios, named by the workload's own title.
  const byWorkload = workloadDefinitions()
    .map((d) => ({ d, refs: REFERENCES.filter((r) => r.workload === d.kind) }))
    .filter((x) => x.refs.length);
  // Counted from the data, so the words stay true as studies and results are added.
  const others = publishedByStudy();
  const total = REFERENCES.length + others.reduce((n, s) => n + s.results.length, 0);
  return (
    <div className="stack">
      <section className="panel">
        <h1>Published results</h1>
        <p style={{ marginTop: 0 }} data-testid="references-count">
          {total} published results from {others.length + 1} studies: {REFERENCES.length} scenarios of {REFERENCE_ARTICLE_TITLE}
          {others.map((s) => `, ${s.results.length} of ${s.title}`).join("")}. Each is always labelled <span className="badge neutral">published</span> and
          never mixed with runs measured here.
        </p>
        <h2>{REFERENCE_ARTICLE_TITLE}</h2>
        <p style={{ marginTop: 0 }}>
          Its {REFERENCES.length} scenarios, from <a href={REFERENCE_ARTICLE_URL}>the article</a> and{" "}
          <a href={`https://github.com/${REFERENCE_REPO}/tree/${REFERENCE_COMMIT}`}>
            {REFERENCE_REPO}@{REFERENCE_COMMIT.slice(0, 7)}
          </a>
          . Each number is the author&rsquo;s average of his runs&rsquo; final numbers, as published. Read the caveats: some numbers were flagged by the author
          himself.
        </p>
        <div className="row">
          {byWorkload.map(({ d, refs }) => (
            <Link key={d.kind} className="btn" href={`/compare?ids=${refs.map((r) => `ref:${r.id}`).join(",")}`}>
              Compare the {d.title} scenarios
            </Link>
          ))}
          <a className="btn" href="/api/references">
            JSON
          </a>
        </div>
      </section>

      <section className="panel flush">
        <div className="table-wrap">
          <table className="data compact" data-testid="references-table">
            <thead>
              <tr>
                <th>Scenario</th>
                <th>Server</th>
                <th className="num">Write msg/s</th>
                <th className="num">Read msg/s</th>
                <th className="num">E2E p50 / p95 / p99</th>
                <th className="num">Runs</th>
              </tr>
            </thead>
            <tbody>
              {REFERENCES.map((r) => (
                <tr key={r.id} data-ref={r.id}>
                  <td>
                    <Link href={`/references/${r.id}`}>{referenceLabel(r)}</Link>
                  </td>
                  <td>
                    {r.server.instance} ({r.server.vcpu} vCPU){r.nodes > 1 ? ` × ${r.nodes}` : ""}
                  </td>
                  <td className="num">{r.headline.writeAsPublished ?? fmtNum(r.headline.writeMsgPerSec)}</td>
                  <td className="num">{r.headline.readAsPublished ?? fmtNum(r.headline.readMsgPerSec)}</td>
                  <td className="num">
                    {ms(r.headline.latencyMs.e2e.p50)} / {ms(r.headline.latencyMs.e2e.p95)} / {ms(r.headline.latencyMs.e2e.p99)}
                    {r.headline.e2eFlag ? " ⚠" : ""}
                  </td>
                  <td className="num">
                    {r.config.runs} × {r.config.durationSeconds} s
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <div className="ref-grid">
        {REFERENCES.map((r) => (
          <section key={r.id} id={r.id} className="panel ref-card" data-testid={`ref-${r.id}`}>
            <div className="spread">
              <h2>{referenceLabel(r)}</h2>
              <span className="badge neutral">published</span>
            </div>
            <p className="small" style={{ margin: 0 }}>
              <strong>Measured:</strong> {referenceSummary(r)}
            </p>
            <Headline r={r} />
            <dl className="ref-facts">
              <dt>Server</dt>
              <dd>
                AWS {r.server.instance}: {r.server.vcpu} vCPU, {r.server.ramGib} GiB, {r.server.disk}
              </dd>
              <dt>Topology</dt>
              <dd>{r.replication ? `${r.nodes} nodes, ${r.replication.synchronousStandbyNames} (one sync replica, cross-AZ)` : "single node"}</dd>
              <dt>Postgres</dt>
              <dd>
                {r.postgres.version}, {r.postgres.settings}
              </dd>
              <dt>Client</dt>
              <dd>separate {r.client.instance}, the Go tool</dd>
              <dt>Source</dt>
              <dd>
                <a href={sourceUrl(r.source)}>{r.source}</a>
              </dd>
            </dl>
            <div>
              <h3>Caveats</h3>
              <Caveats caveats={r.caveats} limit={3} />
            </div>
            <RefActions r={r} />
          </section>
        ))}
      </div>

      <PublishedStudies />
    </div>
  );
}
