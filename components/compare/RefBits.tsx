// Pieces of the references pages (server components).
import { fmtLat, fmtNum } from "@/lib/compare/format";
import { ResultActions } from "./PublishedBits";
import { readsPerGroup } from "@/lib/measurement/operations";
import { sourceUrl, type Caveat, type Reference } from "@/lib/references/references";
import "./compare.css";

/** A published latency with its unit ("8.76 ms", "19.2 s"); "—" when not published. */
export const ms = fmtLat;

export function Caveats({ caveats, limit }: { caveats: Caveat[]; limit?: number }) {
  const shown = limit ? caveats.slice(0, limit) : caveats;
  return (
    <ul className="caveats" data-testid="caveats">
      {shown.map((c, i) => (
        <li key={i}>
          <span className={`badge ${c.by === "author" ? "warn" : "neutral"}`}>{c.by === "author" ? "author" : "found"}</span> {c.text}{" "}
          {c.source && /^(results|README|pubsub|queue|common|main)/.test(c.source) ? (
            <a className="small" href={sourceUrl(c.source.split(" ")[0].split(";")[0])} target="_blank" rel="noreferrer">
              source
            </a>
          ) : c.source ? (
            <span className="hint">({c.source})</span>
          ) : null}
        </li>
      ))}
      {limit && caveats.length > limit ? <li className="hint">and {caveats.length - limit} more on the details page</li> : null}
    </ul>
  );
}

export const RefActions = ({ r, details = true }: { r: Reference; details?: boolean }) => (
  <ResultActions id={r.id} runHref={`/runs/new?preset=${r.id}`} details={details} />
);

export function Headline({ r }: { r: Reference }) {
  const h = r.headline;
  return (
    <div className="kpis">
      <div className="kpi">
        <span className="v">{h.writeAsPublished ?? `${fmtNum(h.writeMsgPerSec)} msg/s`}</span>
        <span className="k">write · {fmtNum(h.writeMiBPerSec)} MiB/s</span>
      </div>
      <div className="kpi">
        <span className="v">{h.readAsPublished ?? `${fmtNum(h.readMsgPerSec)} msg/s`}</span>
        <span className="k">
          read{readsPerGroup(r.workload) ? ` (${r.config.consumerGroups}× fan-out)` : ""} ·{" "}
          {h.readGiBPerSec ? `${h.readGiBPerSec} GiB/s` : `${fmtNum(h.readMiBPerSec)} MiB/s`}
        </span>
      </div>
      <div className="kpi">
        <span className="v">
          {ms(h.latencyMs.e2e.p50)} / {ms(h.latencyMs.e2e.p95)} / {ms(h.latencyMs.e2e.p99)}
        </span>
        <span className="k">e2e p50 / p95 / p99</span>
      </div>
    </div>
  );
}
