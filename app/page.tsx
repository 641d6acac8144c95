import Link from "next/link";
import { StatusPanel } from "@/components/StatusPanel";
import { checkHealth } from "@/lib/status/health";

export const dynamic = "force-dynamic";

export default async function Home() {
  const health = await checkHealth();
  return (
    <div className="stack">
      <section className="panel">
        <h1>Can Postgres carry your queue or pub/sub load?</h1>
        <p className="muted" style={{ margin: 0 }}>
          Run the Kafka-style pub/sub log and the <code>SKIP LOCKED</code> queue of the &ldquo;Kafka is fast, I&rsquo;ll use Postgres&rdquo; benchmark against
          your own Postgres, watch throughput and latency percentiles live, and compare with other runs and with the published AWS c7i results.
        </p>
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
