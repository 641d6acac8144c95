// What the New run form asks the server about the chosen target: its connection budget and version
// (GET /api/targets/:id/info), and how a published scenario fits it (GET /api/references/:id/fit).
import { useEffect, useState } from "react";
import type { FitWarning } from "@/lib/references/references";
import type { TargetInfo } from "@/lib/targets/store";

/** "pending": a target with nothing to probe yet (the embedded replicated one before its first run), and why. */
export type InfoState = { state: "loading" } | { state: "ok"; info: TargetInfo } | { state: "pending"; note: string } | { state: "error"; error: string };
export type FitState = { state: "loading" } | { state: "ok"; warnings: FitWarning[]; targetName: string } | { state: "error"; error: string };

/** The target's info, fetched again when the target changes or `recheck` is called. */
export function useTargetInfo(targetId: string): { info: InfoState; recheck: () => void } {
  const [info, setInfo] = useState<InfoState>({ state: "loading" });
  const [nonce, setNonce] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: nonce is a "check again" button's counter: changing it must re-fetch.
  useEffect(() => {
    let cancelled = false;
    setInfo({ state: "loading" });
    fetch(`/api/targets/${encodeURIComponent(targetId)}/info`, { cache: "no-store" })
      .then(async (r) => {
        const body = await r.json();
        if (cancelled) return;
        if (!r.ok) setInfo({ state: "error", error: body.error ?? `HTTP ${r.status}` });
        else setInfo(body.info ? { state: "ok", info: body.info } : { state: "pending", note: body.pending });
      })
      .catch(() => !cancelled && setInfo({ state: "error", error: "the app did not answer" }));
    return () => {
      cancelled = true;
    };
  }, [targetId, nonce]);
  return { info, recheck: () => setNonce((n) => n + 1) };
}

/**
 * A published scenario's fit on this target and machine, for the config as it stands now: the same
 * fitWarnings as /references/[id], through GET /api/references/:id/fit. Waits for typing to pause.
 * `fitConfig` is the parsed config as JSON, null while the form does not parse.
 */
export function useFit(referenceId: string | undefined, fitConfig: string | null, targetId: string): FitState {
  const [fit, setFit] = useState<FitState>({ state: "loading" });
  useEffect(() => {
    if (!referenceId || !fitConfig) return;
    const ctl = new AbortController();
    setFit({ state: "loading" });
    const t = setTimeout(() => {
      const q = new URLSearchParams({ targetId, config: fitConfig });
      fetch(`/api/references/${encodeURIComponent(referenceId)}/fit?${q}`, { cache: "no-store", signal: ctl.signal })
        .then(async (r) => {
          const body = await r.json();
          setFit(r.ok ? { state: "ok", warnings: body.warnings, targetName: body.target.name } : { state: "error", error: body.error ?? `HTTP ${r.status}` });
        })
        .catch((err) => !ctl.signal.aborted && setFit({ state: "error", error: `the app did not answer (${(err as Error).message})` }));
    }, 300);
    return () => {
      clearTimeout(t);
      ctl.abort();
    };
  }, [referenceId, fitConfig, targetId]);
  return fit;
}
