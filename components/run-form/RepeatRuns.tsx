"use client";
// "Repeat" of the New run form: the form's config N times, one after the other on one target (POST /api/runs/repeat,
// lib/repeat/), then the set's page, which follows the runs until they end and shows each figure with its spread and
// the interval of its median. The CLI has the same action (`--repeat N`).
import { useState } from "react";
import { MAX_REPEATS } from "@/lib/repeat/stats";
import { fmtDuration } from "@/lib/runs/format";
import { CountField, countValue, SetLaunch, type SetPanelProps, useSetPost } from "./SetLaunch";

const DEFAULT_REPEAT = 6;

export function RepeatRuns({ input, targetId, ready, runSeconds, labels }: SetPanelProps) {
  const [repeat, setRepeat] = useState(String(DEFAULT_REPEAT));
  const { launch, launching, error } = useSetPost("/api/runs/repeat");
  const n = Number(repeat);
  const ok = /^\s*\d+\s*$/.test(repeat) && n >= 2 && n <= MAX_REPEATS;

  return (
    <section className="panel" data-testid="repeat-runs">
      <h2>Repeat</h2>
      <p className="hint">
        This config several times, one after the other, each an ordinary run; then each rate and latency pooled over them, the median of their own figures with
        its interval, and how far apart they landed: the noise one run cannot show.
      </p>
      <CountField
        id="repeat-count"
        label="Runs"
        min={2}
        max={MAX_REPEATS}
        value={repeat}
        onChange={setRepeat}
        ok={ok}
        disabled={launching}
        hint={
          !ok
            ? `a whole number from 2 to ${MAX_REPEATS}`
            : `${n} runs${runSeconds !== null ? `, each loading the target up to ${fmtDuration(runSeconds)}` : ""}; 6 or more give a 95 % interval of the median`
        }
      />
      <SetLaunch
        label={ok ? `Launch ${n} runs` : "Launch runs"}
        className="btn"
        launching={launching}
        disabled={!ready || !ok || launching}
        ready={ready}
        error={error}
        onClick={() => launch({ config: input, targetId, repeat: countValue(repeat), ...labels })}
        testId="repeat-launch"
      />
    </section>
  );
}
