import Link from "next/link";
import { StatusPanel } from "@/components/StatusPanel";
import { publishedResults } from "@/lib/references/published";
import { REFERENCE_ARTICLE_TITLE, REFERENCES } from "@/lib/references/references";
import { checkHealth } from "@/lib/status/health";
import { workloadDefinitions } from "@/lib/workloads/config";
import { countWords } from "@/lib/words";
import { STUDIES } from "@/workloads/types";

export const dynamic = "force-dynamic";

/** The studies the workloads reproduce, each with its workloads in the registry's order: read from the registry and
 *  the published figures, so a workload added to a study shows here without an edit. */
function studies() {
  const defs = workloadDefinitions();
  const published = publishedResults();
  const of = (kinds: (kind: string) => boolean) => defs.filter((d) => kinds(d.kind));
  return [
    { key: "kozlovski", title: REFERENCE_ARTICLE_TITLE, workloads: of((k) => REFERENCES.some((r) => r.workload === k)) },
    ...Object.entries(STUDIES).map(([key, s]) => ({
      key,
      title: s.title,
      workloads: of((k) => published.some((p) => p.study === key && p.config.kind === k)),
    })),
  ].filter((s) => s.workloads.length);
}

export default async function Home() {
  const health = await checkHealth();
  const list = studies();
  return (
    <div className="stack">
      <section className="panel">
        <h1>Can Postgres carry your queue or pub/sub load?</h1>
        <p className="muted" style={{ margin: 0 }}>
          Run the workloads of {countWords(list.length, "published study")} against your own Postgres, watch throughput and latency percentiles live, and
          compare with other runs and with the figures the studies published.
        </p>
        <div className="stack" style={{ marginTop: 12 }} data-testid="home-studies">
          {list.map((s) => (
            <div key={s.key} data-study={s.key}>
              <strong>{s.title}</strong>
              <ul style={{ margin: "4px 0 0" }}>
                {s.workloads.map((d) => (
                  <li key={d.kind} data-workload={d.kind}>
                    <strong>{d.title}</strong>: {d.purpose ?? d.description}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
        <div className="row" style={{ marginTop: 16 }}>
          <Link className="btn primary" href="/runs/new">
            New run
          </Link>
          <Link className="btn" href="/runs">
            Runs
          </Link>
          <Link className="btn" href="/compare">
            Compare
          </Link>
          <Link className="btn" href="/references">
            Published results
          </Link>
        </div>
      </section>
      <StatusPanel initial={health} />
    </div>
  );
}
