import Link from "next/link";
import { StatusPanel } from "@/components/StatusPanel";
import { publishedResults } from "@/lib/references/published";
import { REFERENCE_ARTICLE_TITLE, REFERENCES } from "@/lib/references/references";
import { checkHealth } from "@/lib/status/health";
import { workloadDefinitions } from "@/lib/workloads/config";
import { countWords } from "@/lib/words";
import { STUDIES } from "@/workloads/types";

export const dynamic = "force-dynamic";

/** Every registered workload, under the study it reproduces (in the registry's order), and those no study
 *  publishes figures for under their own heading: read from the registry and the published figures, so a workload
 *  added to the registry shows here without an edit. */
function studies() {
  const defs = workloadDefinitions();
  const published = publishedResults();
  const of = (kinds: (kind: string) => boolean) => defs.filter((d) => kinds(d.kind));
  const groups = [
    { key: "kozlovski", title: REFERENCE_ARTICLE_TITLE, workloads: of((k) => REFERENCES.some((r) => r.workload === k)) },
    ...Object.entries(STUDIES).map(([key, s]) => ({
      key,
      title: s.title,
      workloads: of((k) => published.some((p) => p.study === key && p.config.kind === k)),
    })),
  ].filter((s) => s.workloads.length);
  const inStudy = new Set(groups.flatMap((g) => g.workloads.map((d) => d.kind)));
  const others = defs.filter((d) => !inStudy.has(d.kind));
  return { count: defs.length, studies: groups, others };
}

export default async function Home() {
  const health = await checkHealth();
  const { count, studies: list, others } = studies();
  return (
    <div className="stack">
      <section className="panel">
        <h1>Can Postgres carry your load?</h1>
        <p className="muted" style={{ margin: 0 }}>
          Run the workloads of {countWords(list.length, "published study")}, {count} in all, against your own Postgres, as the studies define them. Watch
          throughput and latency percentiles live, see what limited each run, find the highest rate your server sustains under a latency goal, and compare runs
          with each other and with the figures the studies published.
        </p>
        <div className="stack" style={{ marginTop: 12 }} data-testid="home-studies">
          {list.map((s) => (
            <WorkloadGroup key={s.key} study={s.key} title={s.title} workloads={s.workloads} />
          ))}
          {others.length > 0 && <WorkloadGroup title="Other workloads" workloads={others} />}
        </div>
        <div className="row" style={{ marginTop: 16 }}>
          <Link className="btn primary" href="/runs/new">
            New run
          </Link>
          <Link className="btn" href="/runs">
            Runs
          </Link>
          <Link className="btn" href="/ceilings">
            Ceilings
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

function WorkloadGroup({ study, title, workloads }: { study?: string; title: string; workloads: ReturnType<typeof workloadDefinitions> }) {
  return (
    <div data-study={study}>
      <strong>{title}</strong>
      <ul style={{ margin: "4px 0 0" }}>
        {workloads.map((d) => (
          <li key={d.kind} data-workload={d.kind}>
            <strong>{d.title}</strong>: {d.purpose ?? d.description}
          </li>
        ))}
      </ul>
    </div>
  );
}
