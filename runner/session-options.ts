// The settings a run gives every session it opens on the target (config.synchronousCommit, lib/sync-commit.ts):
// carried by the target URL's `options` ("-c synchronous_commit=off"), the server's own startup parameter, so the
// admin connection, every workload connection (pools, workers, the parts of a run over several processes, which
// get the run's URL), the telemetry's and the probes' all start with it and none can be missed. Each session
// reports what it got (runner/core/pg/pgclient.ts TargetClient.synchronousCommit) and sessionSettingProblem
// fails a run whose session did not (a pooler that drops startup options); a pooler that refuses them refuses
// the connection with its own message.
import type { WorkloadConfig } from "../lib/workloads/config";
import type { TargetClient } from "./core/pg/pgclient";

/** The `-c name=value` settings of a run's sessions, by GUC name; empty when the run keeps the server's own. */
export function sessionSettingsOf(config: WorkloadConfig): Record<string, string> {
  return config.synchronousCommit ? { synchronous_commit: config.synchronousCommit } : {};
}

/**
 * The target URL whose sessions start with `settings`: its `options` parameter gets `-c name=value` for each,
 * after any the URL already had (the last of a name wins, so the run's own prevail). The URL unchanged without
 * settings. Values are the levels' words, with no spaces or backslashes to escape.
 */
export function withSessionSettings(url: string, settings: Record<string, string>): string {
  const extra = Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`);
  if (!extra.length) return url;
  const q = url.indexOf("?");
  const base = q < 0 ? url : url.slice(0, q);
  // The URL's other parameters are kept as written; only `options` is read and written again.
  const others =
    q < 0
      ? []
      : url
          .slice(q + 1)
          .split("&")
          .filter((p) => p && !p.startsWith("options="));
  const had = new URLSearchParams(q < 0 ? "" : url.slice(q + 1)).get("options");
  const options = [had, ...extra].filter(Boolean).join(" ");
  return `${base}?${[...others, `options=${encodeURIComponent(options)}`].join("&")}`;
}

/**
 * Whether every one of `sessions` reported the synchronous_commit the run asked for: null when they did (or the
 * run asked none), else what is wrong, naming the sessions.
 */
export function sessionSettingProblem(config: WorkloadConfig, sessions: readonly TargetClient[]): string | null {
  const want = config.synchronousCommit;
  if (!want) return null;
  const wrong = sessions.filter((s) => s.synchronousCommit !== want);
  if (!wrong.length) return null;
  const named = wrong.map((s) => `${s.role} (backend ${s.pid}: ${s.synchronousCommit ?? "not reported"})`).join(", ");
  return `the run asked synchronous_commit = ${want} of every session, but ${wrong.length} of ${sessions.length} did not have it: ${named}. A connection pooler between the runner and Postgres may drop the startup option "-c synchronous_commit": connect straight to Postgres, or set synchronous_commit on the server and leave the run's blank`;
}
