"use client";
// "Repeat" of the New run form: the form's config N times, one after the other on one target (POST /api/runs/repeat,
// lib/repeat/), then the set's page, which follows the runs until they end and shows each figure with its spread and
// the interval of its median. The CLI has the same action (`--repeat N`).
import { useRouter } from "next/navigation";
import { useState } from "react";
import { fmtDuration } from "@/lib/runs/format";
import { MAX_REPEATS } from "@/lib/repeat/stats";
import { SetLaunch } from "./SetLaunch";
import type { SetPanelProps } from "./SweepQueues";

const DEFAULT_REPEAT = 6;

export function RepeatRuns({ input, targetId, ready, runSeconds, labels }: SetPanelProps) {
  const router = useRouter();
  const [repeat, setRepeat] = useState(String(DEFAULT_REPEAT));
  const [error, setError] = useState<string | null>(null);
  const [launching, setLaunching] = useState(false);
  const n = Number(repeat);
  const ok = /^\s*\d+\s*$/.test(repeat) && n >= 2 && n <= MAX_REPEATS;

  const launch = async () => {
    setLaunching(true);
    setError(null);
    const r = await fetch("/api/runs/repeat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ config: input, targetId, repeat: /^\s*\d+\s*$/.test(repeat) ? Number(repeat) : repeat, ...labels }),
    }).catch(() => null);
    if (r?.status === 201) {
      router.push(((await r.json()) as { url: string }).url);
      return;
    }
    const body = r ? ((await r.json().catch(() => ({}))) as { error?: string; fields?: Record<string, string> }) : {};
    setError(r ? Object.values(body.fields ?? {}).join("; ") || (body.error ?? `the server answered HTTP ${r.status}`) : "the app did not answer");
    setLaunching(false);
  };

  return (
    <section className="panel" data-testid="repeat-runs">
      <h2>Repeat</h2>
      <p className="hint">
        This config several times, one after the other, each an ordinary run; then each rate and latency pooled over them, the median of their own figures with
        its interval, and how far apart they landed: the noise one run cannot show.
      </p>
      <div className="fieldbox">
        <label htmlFor="repeat-count">Runs</label>
        <input
          id="repeat-count"
          type="number"
          min={2}
          max={MAX_REPEATS}
          step={1}
          value={repeat}
          onChange={(e) => setRepeat(e.target.value)}
          aria-invalid={!ok}
          aria-describedby="repeat-count-hint"
          disabled={launching}
          style={{ width: "5em" }}
        />
        <span className="hint" id="repeat-count-hint">
          {!ok
            ? `a whole number from 2 to ${MAX_REPEATS}`
            : `${n} runs${runSeconds !== null ? `, each loading the target up to ${fmtDuration(runSeconds)}` : ""}; 6 or more give a 95 % interval of the median`}
        </span>
      </div>
      <SetLaunch
        label={ok ? `Launch ${n} runs` : "Launch runs"}
        className="btn"
        launching={launching}
        disabled={!ready || !ok || launching}
        ready={ready}
        error={error}
        onClick={launch}
        testId="repeat-launch"
      />
    </section>
  );
}
