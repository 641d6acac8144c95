// Every environment variable the product reads, parsed once with Zod. README.md's Configuration table lists the same (scripts/readme.test.ts checks it).
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { checkPgUrl } from "./targets/pgurl";
import { MAX_REPLICA_DELAY_MS, MAX_REPLICAS, parseReplicaDelay } from "./targets/replicated-shape";
import { syncNamesProblem } from "./targets/sync-names";

const pgUrl = (name: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === "" ? undefined : v))
    .superRefine((v, ctx) => {
      const problem = v === undefined ? null : checkPgUrl(v);
      if (problem) ctx.addIssue({ code: "custom", message: `${name} ${problem}` });
    });

/** An empty variable counts as unset (Compose and Kubernetes often pass "" for an unset value). */
const unsetIfEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), schema);

const port = (name: string, dflt: number) =>
  z.coerce
    .number({ error: `${name} must be a port number` })
    .int(`${name} must be a whole number`)
    .min(1, `${name} must be between 1 and 65535`)
    .max(65535, `${name} must be between 1 and 65535`)
    .default(dflt);

export const EnvSchema = z
  .object({
    PORT: port("PORT", 3000),
    HOST: z.string().default("127.0.0.1"),
    DATA_DIR: z.string().default("./.data"),
    DATABASE_URL: pgUrl("DATABASE_URL"),
    TARGET_DATABASE_URL: pgUrl("TARGET_DATABASE_URL"),
    EMBEDDED_PG_PORT: port("EMBEDDED_PG_PORT", 54329),
    /** The default target's own embedded Postgres (DATA_DIR/target), apart from the control store's. */
    EMBEDDED_TARGET_PG_PORT: port("EMBEDDED_TARGET_PG_PORT", 54330),
    /** The embedded replicated target's standbys (DATA_DIR/replicated, platform/replicated.ts), offered beside the
     *  embedded default when `npm start` runs its own Postgres; 0 offers none. */
    EMBEDDED_REPLICAS: unsetIfEmpty(
      z.coerce
        .number({ error: "EMBEDDED_REPLICAS must be a number of standbys" })
        .int("EMBEDDED_REPLICAS must be a whole number of standbys")
        .min(0, "EMBEDDED_REPLICAS must be 0 (no replicated target) or more")
        .max(MAX_REPLICAS, `EMBEDDED_REPLICAS must be at most ${MAX_REPLICAS} (standbys pg2 … pg${MAX_REPLICAS + 1})`)
        .default(2),
    ),
    /** Its synchronous_standby_names; unset: FIRST 1 (pg2, pg3, …), the published three-node scenarios'. */
    EMBEDDED_SYNC_STANDBY_NAMES: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v ? v : undefined)),
    /** A delay each standby's traffic with the primary gets each way, through a relay (platform/relay.ts), in ms. */
    EMBEDDED_REPLICA_DELAY: z
      .string()
      .trim()
      .optional()
      .transform((v, ctx) => {
        if (!v) return undefined;
        const ms = parseReplicaDelay(v);
        if (ms === null)
          ctx.addIssue({
            code: "custom",
            message: `EMBEDDED_REPLICA_DELAY must be a delay each way with its unit, such as 0.5ms or 500us (at most ${MAX_REPLICA_DELAY_MS} ms), not "${v}"`,
          });
        return ms || undefined;
      }),
    /** Space kept free on the disks of the control store and of a local target (platform/disk.ts), in MiB. Unset:
     *  10 % of the disk, at most 1 GiB. A run is refused or stopped before it would eat into it. */
    DISK_RESERVE_MB: z.preprocess(
      (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
      z.coerce
        .number({ error: "DISK_RESERVE_MB must be a number of MiB" })
        .int("DISK_RESERVE_MB must be a whole number of MiB")
        .min(0, "DISK_RESERVE_MB must be 0 or more (MiB)")
        .optional(),
    ),
    RUNNER_HEARTBEAT_MS: z.coerce.number().int().min(200).max(60_000).default(2000),
    /** The message data one run may hold in the runner (lib/workloads/memory.ts), in MiB. Default: half this machine's
     *  memory, at most 2 GiB (a runner beside the app and Postgres should not take the machine). */
    RUNNER_MEMORY_BUDGET_MB: z.coerce
      .number({ error: "RUNNER_MEMORY_BUDGET_MB must be a number of MiB" })
      .int("RUNNER_MEMORY_BUDGET_MB must be a whole number of MiB")
      .min(128, "RUNNER_MEMORY_BUDGET_MB must be at least 128 (MiB): a run's garbage alone can reach 64 MiB")
      .default(() => defaultMemoryBudgetMb()),
    /** Parts of one run (config.processes) a runner forks itself; the rest are opened in the control store for
     *  other runners (agents) to carry (runner/parts/agent.ts). 0: every part on other runners. */
    RUNNER_MAX_LOCAL_PARTS: unsetIfEmpty(
      z.coerce
        .number({ error: "RUNNER_MAX_LOCAL_PARTS must be a number of processes" })
        .int("RUNNER_MAX_LOCAL_PARTS must be a whole number of processes")
        .min(0, "RUNNER_MAX_LOCAL_PARTS must be 0 or more (0: every part of a run on other runners)")
        .max(64, "RUNNER_MAX_LOCAL_PARTS must be at most 64 (a run has at most 64 processes)")
        .default(() => os.availableParallelism()),
    ),
    /** How long a run waits for other runners to take the parts it opened before it fails, in seconds. */
    PARTS_WAIT_SECONDS: unsetIfEmpty(
      z.coerce
        .number({ error: "PARTS_WAIT_SECONDS must be a number of seconds" })
        .int("PARTS_WAIT_SECONDS must be a whole number of seconds")
        .min(1, "PARTS_WAIT_SECONDS must be at least 1 (seconds)")
        .max(86_400, "PARTS_WAIT_SECONDS must be at most 86400 (a day)")
        .default(60),
    ),
    /** Extra host names the app answers to (comma-separated), besides 127.0.0.1, localhost and HOST (proxy.ts). */
    ALLOWED_HOSTS: z
      .string()
      .default("")
      .transform((v) =>
        v
          .split(",")
          .map((h) => h.trim().toLowerCase())
          .filter(Boolean),
      ),
    /** Build folder of the web app (several checkouts' builds side by side); next.config.ts reads it too. */
    NEXT_DIST_DIR: z.string().trim().min(1).default(".next").catch(".next"),
    /** "1" when `npm start` runs its own Postgres as the default target (set by scripts/start.ts). */
    TARGET_IS_EMBEDDED: z
      .string()
      .optional()
      .transform((v) => v === "1"),
  })
  .refine((e) => e.EMBEDDED_PG_PORT !== e.EMBEDDED_TARGET_PG_PORT, {
    message: "EMBEDDED_PG_PORT and EMBEDDED_TARGET_PG_PORT must differ: the control store and the default target each have an embedded Postgres of their own",
  })
  .superRefine((e, ctx) => {
    const problem = e.EMBEDDED_SYNC_STANDBY_NAMES && e.EMBEDDED_REPLICAS > 0 ? syncNamesProblem(e.EMBEDDED_SYNC_STANDBY_NAMES, e.EMBEDDED_REPLICAS) : null;
    if (problem) ctx.addIssue({ code: "custom", message: `EMBEDDED_SYNC_STANDBY_NAMES '${e.EMBEDDED_SYNC_STANDBY_NAMES}' ${problem}` });
  });
export type Env = z.infer<typeof EnvSchema>;

/** RUNNER_MEMORY_BUDGET_MB's default: min(2048, 50% of os.totalmem()), in MiB. */
export function defaultMemoryBudgetMb(): number {
  return Math.min(2048, Math.floor(os.totalmem() / 2 / 1048576));
}

/** Parses process.env; on bad input throws one Error whose message names every bad variable. */
export function readEnv(source: Record<string, string | undefined> = process.env): Env {
  const r = EnvSchema.safeParse(source);
  if (!r.success) throw new Error(r.error.issues.map((i) => i.message).join("; "));
  return r.data;
}

export function dataDir(env: Env): string {
  return path.resolve(env.DATA_DIR);
}

/**
 * A runner silent for longer than this counts as down and its runs are marked interrupted: several missed beats
 * at the default 2 s heartbeat, so one slow control-store write or a busy moment does not end a run that is fine.
 */
export const RUNNER_STALE_MS = 15_000;

/** The product's version, shown in the manifest and the health endpoint. */
export const PRODUCT_VERSION = "0.1.0";
