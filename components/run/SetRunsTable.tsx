// The runs of a set queued together (an A/B's pairs, a synchronous commit ladder's levels) in the order they run:
// each one's place in the set (its pair or round, its variant or level), its page, its status as polled, its error.
import Link from "next/link";
import type { RunView } from "@/lib/runs/view";

/** `slots` in run order, each with its group (pair, round) and its name (variant, level); `prefix` keys the test ids. */
export function SetRunsTable({
  head,
  slots,
  views,
  prefix,
}: {
  head: [group: string, name: string];
  slots: { group: number; name: string; runId: string }[];
  views: (RunView | null)[];
  prefix: string;
}) {
  return (
    <table className="data compact" data-testid={`${prefix}-runs`}>
      <thead>
        <tr>
          <th scope="col">{head[0]}</th>
          <th scope="col">{head[1]}</th>
          <th scope="col">run</th>
          <th scope="col">status</th>
          <th scope="col" />
        </tr>
      </thead>
      <tbody>
        {slots.map((s, i) => {
          const v = views[i];
          return (
            <tr key={s.runId} data-testid={`${prefix}-run-${i}`}>
              <td>{s.group}</td>
              <th scope="row">{s.name}</th>
              <td>
                <Link href={`/runs/${s.runId}`}>{v?.name || s.runId}</Link>
                {v?.name && <span className="mono muted small"> {s.runId}</span>}
              </td>
              <td data-testid={`${prefix}-status-${i}`}>
                {v ? v.status : "deleted"}
                {v?.status === "running" && v.phase ? ` (${v.phase})` : ""}
              </td>
              <td>{v?.error ?? ""}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
