"use client";
// The synchronous commit ladder of the New run form: the form's config once per synchronous_commit level asked and
// per repeat, queued together in the balanced order (POST /api/runs/ladder, lib/ladder/), then the ladder's page,
// which follows the runs until they end and shows each level's cost. The CLI has the same action
// (`--sync-commit off,local,remote_write,on,remote_apply --repeats N`).
import { useState } from "react";
import { DEFAULT_REPEATS, MAX_REPEATS } from "@/lib/ladder/order";
import { fmtDuration } from "@/lib/runs/format";
import { SYNC_COMMIT_LEVELS, SYNC_COMMIT_WAITS, type SyncCommitLevel } from "@/lib/sync-commit";
import { CountField, countValue, SetLaunch, type SetPanelProps, useSetPost } from "./SetLaunch";

export function SyncCommitLadder({ input, targetId, ready, runSeconds, labels }: SetPanelProps) {
  const [levels, setLevels] = useState<SyncCommitLevel[]>([...SYNC_COMMIT_LEVELS]);
  const [repeats, setRepeats] = useState(String(DEFAULT_REPEATS));
  const { launch, launching, error } = useSetPost("/api/runs/ladder");
  const n = Number(repeats);
  const repeatsOk = Number.isInteger(n) && n >= 1 && n <= MAX_REPEATS;
  const runs = levels.length * (repeatsOk ? n : 0);
  const toggle = (l: SyncCommitLevel, on: boolean) => setLevels((xs) => SYNC_COMMIT_LEVELS.filter((x) => (x === l ? on : xs.includes(x))));

  return (
    <section className="panel" data-testid="sync-commit-ladder">
      <h2>Synchronous commit ladder</h2>
      <p className="hint">
        This config once at each synchronous_commit level and repeat, in balanced order (rounds up the levels, then down), each an ordinary run; then, per
        level, the commit and end-to-end latency at p50/p99, throughput, the SyncRep waits and each standby&apos;s lag, with intervals across repeats, beside
        the 2016 ladder (pgbench on PostgreSQL 9.6). Without standbys, remote_write, on and remote_apply wait for the local flush only.
      </p>
      <fieldset className="fieldbox" disabled={launching}>
        <legend>Levels</legend>
        {SYNC_COMMIT_LEVELS.map((l) => (
          <label key={l} className="row" style={{ gap: 6 }} title={`a commit waits for ${SYNC_COMMIT_WAITS[l]}`}>
            <input type="checkbox" name={`ladder-${l}`} checked={levels.includes(l)} onChange={(e) => toggle(l, e.target.checked)} />
            {l}
          </label>
        ))}
      </fieldset>
      <CountField
        id="ladder-repeats"
        label="Repeats"
        min={1}
        max={MAX_REPEATS}
        value={repeats}
        onChange={setRepeats}
        ok={repeatsOk}
        disabled={launching}
        hint={
          !repeatsOk
            ? `a whole number from 1 to ${MAX_REPEATS}`
            : !levels.length
              ? "pick at least one level"
              : `${runs} runs${runSeconds !== null ? `, each loading the target up to ${fmtDuration(runSeconds)}` : ""}; 3 repeats or more give an interval worth reading`
        }
      />
      <SetLaunch
        label="Launch ladder"
        className="btn"
        launching={launching}
        disabled={!ready || !repeatsOk || !levels.length || launching}
        ready={ready}
        error={error}
        onClick={() => launch({ config: input, targetId, levels, repeats: countValue(repeats), ...labels })}
        testId="ladder-launch"
      />
    </section>
  );
}
