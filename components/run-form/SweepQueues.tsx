"use client";
// The queues sweep of the New run form (queued workflows): the form's config once per queue count, queued
// together so the runner runs them back to back, followed here until they end, then their comparison. The CLI
// has the same action (`-queues 1,2,4,8`, workloads/queued-workflows/sweep.ts).
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { parseQueueCounts } from "@/workloads/queued-workflows/definition";
import { agree, countWords } from "../../lib/words";
import { refusalOf, SetLaunch, type SetPanelProps } from "./SetLaunch";
import { memberName } from "@/lib/runs/labels";

interface Launched {
  queues: number;
  id: string;
  status: string;
}

const FINAL = new Set(["completed", "failed", "cancelled", "interrupted"]);
const POLL_MS = 2000;

export function SweepQueues({ input, targetId, ready, runSeconds, labels }: SetPanelProps) {
  const router = useRouter();
  const [text, setText] = useState("1,2,4,8");
  const [error, setError] = useState<string | null>(null);
  const [launching, setLaunching] = useState(false);
  const [runs, setRuns] = useState<Launched[]>([]);
  const parsed = parseQueueCounts(text);
  const compareUrl = `/compare?ids=${runs.map((r) => r.id).join(",")}`;

  // Follow the queued runs until every one has ended, then open their comparison.
  useEffect(() => {
    if (!runs.length || runs.every((r) => FINAL.has(r.status))) return;
    const t = setTimeout(async () => {
      const next = await Promise.all(
        runs.map(async (r) => {
          if (FINAL.has(r.status)) return r;
          const res = await fetch(`/api/runs/${encodeURIComponent(r.id)}`, { cache: "no-store" }).catch(() => null);
          const body = res?.ok ? ((await res.json()) as { status?: string }) : null;
          return body?.status ? { ...r, status: body.status } : r;
        }),
      );
      setRuns(next);
      if (next.every((r) => FINAL.has(r.status))) router.push(compareUrl);
    }, POLL_MS);
    return () => clearTimeout(t);
  }, [runs, router, compareUrl]);

  const launch = async () => {
    if (!parsed.ok || !ready) return;
    setLaunching(true);
    setError(null);
    const launched: Launched[] = [];
    for (const q of parsed.counts) {
      const r = await fetch("/api/runs", {
        method: "POST",
        headers: { "content-type": "application/json" },
        // A sweep is its runs (no record of its own): each carries the tags and notes, and the name with its count.
        body: JSON.stringify({
          config: { ...input, queues: q },
          targetId,
          ...labels,
          ...(labels.name ? { name: memberName(labels.name, `${q} queues`) } : {}),
        }),
      }).catch(() => null);
      if (r?.status !== 201) {
        setError(
          `${q} queues: ${await refusalOf(r)}${launched.length ? ` (the ${countWords(launched.length, "run")} before it ${agree(launched.length, "are", "is")} queued)` : ""}`,
        );
        break;
      }
      const { id } = (await r.json()) as { id: string };
      launched.push({ queues: q, id, status: "queued" });
    }
    setRuns(launched);
    setLaunching(false);
  };

  return (
    <section className="panel" data-testid="sweep-queues">
      <h2>Sweep queues</h2>
      <p className="hint">
        One run of this config per number of queues, run back to back, then their comparison: completion rate against the number of queues (the study published
        it only as a chart).
      </p>
      <div className="fieldbox">
        <label htmlFor="sweep-counts">Queue counts</label>
        <input
          id="sweep-counts"
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-invalid={!parsed.ok}
          aria-describedby="sweep-counts-hint"
          disabled={launching || runs.length > 0}
        />
        <span className="hint" id="sweep-counts-hint">
          {parsed.ok ? `${parsed.counts.length} runs${runSeconds !== null ? `, each loading the target up to ${runSeconds} s` : ""}` : parsed.message}
        </span>
      </div>
      <SetLaunch
        label="Launch sweep"
        launching={launching}
        disabled={!parsed.ok || !ready || launching || runs.length > 0}
        ready={ready}
        error={error}
        onClick={launch}
        testId="sweep-launch"
      />
      {runs.length > 0 && (
        <ul data-testid="sweep-runs">
          {runs.map((r) => (
            <li key={r.id}>
              {r.queues} queue{r.queues === 1 ? "" : "s"}: <a href={`/runs/${r.id}`}>{r.id}</a> {r.status}
            </li>
          ))}
          <li>
            <a href={compareUrl}>Open the comparison now</a> (it opens by itself once every run has ended)
          </li>
        </ul>
      )}
    </section>
  );
}
