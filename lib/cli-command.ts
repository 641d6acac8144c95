// The exact `npm run bench` command that reproduces a run's config headlessly. Flags are the reference
// tool's names (methodology.md §1) so a reader of either tool recognises them; --warmup and --target are
// this product's additions. The runner's CLI (runner/cli.ts) parses exactly these.
import type { WorkloadConfig } from "./workloads";

/** Quotes for a POSIX shell when needed: 'it'\''s'. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * `npm run bench -- pubsub -writers 10 … --warmup 5s`, plus `--target '<url>'` for a non-default target.
 * Pass the *masked* URL for display: the reader fills in the password (the browser never has it).
 */
export function toCliCommand(config: WorkloadConfig, targetUrl?: string): string {
  const args: string[] = [config.kind, "-writers", String(config.writers)];
  if (config.kind === "pubsub") {
    args.push(
      "-readers", String(config.readers),
      "-consumer-groups", String(config.consumerGroups),
      "-partitions", String(config.partitions),
      "-write-batch", String(config.writeBatch),
      "-read-batch", String(config.readBatch),
    );
  } else {
    args.push("-readers", String(config.readers));
  }
  args.push(
    "-payload", String(config.payloadBytes),
    "-duration", `${config.durationSeconds}s`,
    "-throttle_writes", String(config.throttleWritesPerSec),
    "-report", `${config.reportIntervalSeconds}s`,
  );
  if (config.kind === "queue" && config.tuneTableVacuum) args.push("-tune-table-vacuum");
  if (config.backoff !== "reference-effective") args.push("-backoff", config.backoff);
  args.push("--warmup", `${config.warmupSeconds}s`);
  if (targetUrl) args.push("--target", shellQuote(targetUrl));
  return `npm run bench -- ${args.join(" ")}`;
}
