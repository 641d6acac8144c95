// Targets: the Postgres servers runs execute against. The default target (TARGET_DATABASE_URL, usually the
// embedded server) is virtual: id "default", never stored. Saved targets live in the control store with
// their full connection string, which never leaves the server: everything sent to a browser or an API
// client goes through `publicTarget`, which only ever carries maskUrl() output.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { z } from "zod";
import { probePostgres } from "./connect";
import { prisma, type PrismaClient } from "./db";
import { defaultTargetName } from "./default-target";
import { noControlChars } from "./ids";
import { checkPgUrl, describeUrl, explainPgError, maskUrl } from "./pgurl";

export const DEFAULT_TARGET_ID = "default";

/** What a browser or an API client may see of a target. */
export interface PublicTarget {
  id: string;
  name: string;
  /** The connection string with its password replaced by ****. */
  maskedUrl: string;
  isDefault: boolean;
}

/** A target with its real connection string: server side only (run creation, probes, the runner). */
export interface ResolvedTarget extends PublicTarget {
  url: string;
  /** The Run.targetId to store: null for the default target. */
  storedId: string | null;
}

function defaultUrl(): string {
  const url = process.env.TARGET_DATABASE_URL;
  if (!url) throw new Error("TARGET_DATABASE_URL is not set: start the app with `npm start`, which provides it");
  return url;
}

/** This app's default target's name: "embedded default" when `npm start` runs its own Postgres (lib/default-target.ts). */
export function currentDefaultTargetName(): string {
  return defaultTargetName({ embedded: process.env.TARGET_IS_EMBEDDED === "1", url: process.env.TARGET_DATABASE_URL ?? "" });
}

function defaultTarget(): ResolvedTarget {
  const url = defaultUrl();
  return { id: DEFAULT_TARGET_ID, name: currentDefaultTargetName(), maskedUrl: maskUrl(url), isDefault: true, url, storedId: null };
}

export const publicTarget = (t: PublicTarget): PublicTarget => ({ id: t.id, name: t.name, maskedUrl: t.maskedUrl, isDefault: t.isDefault });

/** The default target first, then saved ones by name. Masked only. */
export async function listTargets(db: PrismaClient = prisma()): Promise<PublicTarget[]> {
  const saved = await db.target.findMany({ orderBy: { name: "asc" } });
  return [
    publicTarget(defaultTarget()),
    ...saved.map((t) => ({ id: t.id, name: t.name, maskedUrl: maskUrl(t.connectionString), isDefault: false })),
  ];
}

/** The target for an id ("default" or a saved id; undefined/null means default), or null if there is none. */
export async function resolveTarget(id: string | null | undefined, db: PrismaClient = prisma()): Promise<ResolvedTarget | null> {
  if (!id || id === DEFAULT_TARGET_ID) return defaultTarget();
  const t = await db.target.findUnique({ where: { id } });
  if (!t) return null;
  return { id: t.id, name: t.name, maskedUrl: maskUrl(t.connectionString), isDefault: false, url: t.connectionString, storedId: t.id };
}

export const NewTargetInput = z.object({
  name: z
    .string({ error: "name must be text" })
    .trim()
    .max(80, "name must be at most 80 characters")
    .refine(...noControlChars("name"))
    .optional()
    .transform((v) => (v ? v : undefined)),
  connectionString: z
    .string({ error: "connectionString is required: postgresql://user:password@host:5432/database" })
    .trim()
    .min(1, "connectionString is required: postgresql://user:password@host:5432/database")
    .refine(...noControlChars("connectionString"))
    .superRefine((v, ctx) => {
      const problem = checkPgUrl(v);
      if (problem) ctx.addIssue({ code: "custom", message: `connectionString ${problem}` });
    }),
});
export type NewTargetInput = z.input<typeof NewTargetInput>;

export type AddTargetResult = { ok: true; target: PublicTarget; serverVersion: string } | { ok: false; errors: Record<string, string> };

/**
 * Saves a target after checking its URL and connecting to it once (at most `timeoutMs`), so a typo or an
 * unreachable server is reported now, with the cause, rather than when a run starts.
 */
export async function addTarget(input: unknown, db: PrismaClient = prisma(), timeoutMs = 5000): Promise<AddTargetResult> {
  const parsed = NewTargetInput.safeParse(input);
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const i of parsed.error.issues) errors[i.path.join(".") || "body"] ??= i.message;
    return { ok: false, errors };
  }
  const { connectionString } = parsed.data;
  const name = parsed.data.name ?? describeUrl(connectionString);
  if (name === DEFAULT_TARGET_ID || name === currentDefaultTargetName())
    return { ok: false, errors: { name: `name "${name}" is the default target's; choose another name` } };
  if (await db.target.findUnique({ where: { name } }))
    return { ok: false, errors: { name: `a target named "${name}" already exists; choose another name or delete that one` } };
  let serverVersion: string;
  try {
    serverVersion = await probePostgres("target", connectionString, timeoutMs);
  } catch (err) {
    return { ok: false, errors: { connectionString: (err as Error).message } };
  }
  const row = await db.target.create({ data: { id: `t_${randomUUID().replace(/-/g, "").slice(0, 10)}`, name, connectionString } });
  return { ok: true, serverVersion, target: { id: row.id, name: row.name, maskedUrl: maskUrl(row.connectionString), isDefault: false } };
}

/**
 * Deletes a saved target. Refused while a queued or running run uses it: the run row's target_id would
 * become NULL (ON DELETE SET NULL), which means "default target", and the run would go to the wrong server.
 */
export async function deleteTarget(id: string, db: PrismaClient = prisma()): Promise<"deleted" | "missing" | "default" | "in-use"> {
  if (id === DEFAULT_TARGET_ID) return "default";
  const busy = await db.run.count({ where: { targetId: id, status: { in: ["queued", "running"] } } });
  if (busy) return "in-use";
  const r = await db.target.deleteMany({ where: { id } });
  return r.count ? "deleted" : "missing";
}

export interface TargetInfo {
  serverVersion: string;
  maxConnections: number;
  /** superuser_reserved_connections + reserved_connections (Postgres 16+): slots ordinary roles cannot use. */
  reservedConnections: number;
  /** Client backends connected right now, this probe excluded. */
  inUse: number;
  /** maxConnections − reserved: the most a run could ever open. */
  usable: number;
  /** usable − inUse: what a run could open right now. */
  available: number;
}

/** Connection limits of a target, read in one query from pg_settings and pg_stat_activity. */
export async function targetInfo(url: string, timeoutMs = 5000): Promise<TargetInfo> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on("error", () => undefined);
  try {
    await client.connect();
    const r = await client.query<{ version: string; max: number; su: number; res: number; in_use: number }>(
      `SELECT current_setting('server_version') AS version,
              current_setting('max_connections')::int AS max,
              current_setting('superuser_reserved_connections')::int AS su,
              coalesce(current_setting('reserved_connections', true), '0')::int AS res,
              (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid())::int AS in_use`,
    );
    const row = r.rows[0];
    const reserved = row.su + row.res;
    const usable = row.max - reserved;
    return {
      serverVersion: row.version,
      maxConnections: row.max,
      reservedConnections: reserved,
      inUse: row.in_use,
      usable,
      available: Math.max(0, usable - row.in_use),
    };
  } catch (err) {
    throw new Error(`cannot connect to ${maskUrl(url)}: ${explainPgError(err)}`, { cause: err });
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Why a run needing `needed` connections cannot run on a target, or null if it fits. Only the hard limit
 * blocks (connections in use now may be gone when the run starts, since runs queue); the form warns on the
 * soft one.
 */
export function connectionProblem(needed: number, info: TargetInfo): string | null {
  if (needed <= info.usable) return null;
  return `this run opens ${needed} connections but the target allows at most ${info.usable} (max_connections ${info.maxConnections} − ${info.reservedConnections} reserved). Lower writers/readers/consumer groups, or raise max_connections on the server`;
}
