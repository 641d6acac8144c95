// Targets: the Postgres servers runs execute against. The default target (TARGET_DATABASE_URL, usually the
// embedded server) is virtual: id "default", never stored; so is the embedded replicated target beside an embedded
// default (id "replicated", lib/targets/replicated.ts), started by the runner with its first run. Saved targets
// live in the control store with their full connection string, which never leaves the server: everything sent to
// a browser or an API client goes through `publicTarget`, which only ever carries maskUrl() output.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { z } from "zod";
import { bindingLimit, readBudget, type ConnectionBudget, type LimitName } from "./capacity";
import { controlStoreProblem, readIdentity, readTargetFacts, type ServerIdentity } from "./connect";
import { prisma, type PrismaClient } from "../db";
import { type CliTarget, defaultTargetName, replicatedTargetForCli } from "./default-target";
import { noControlChars } from "../api/ids";
import { checkPgUrl, connectFailure, describeUrl, maskUrl } from "./pgurl";
import { readEnv } from "../env";
import { isReplicatedTargetName, REPLICATED_TARGET_ID } from "./replicated-shape";
import { replicatedAbout, replicatedPending, replicatedSettings, replicatedState } from "./replicated";

export const DEFAULT_TARGET_ID = "default";

/** What a browser or an API client may see of a target. */
export interface PublicTarget {
  id: string;
  name: string;
  /** The connection string with its password replaced by ****. */
  maskedUrl: string;
  isDefault: boolean;
  /** The embedded replicated target only: what it is and where it stands ("starts with its first run"), and how
   *  `npm run bench` reaches it (--replicas N). */
  replicated?: { about: string; cli: CliTarget };
}

/** A target with its real connection string: server side only (run creation, probes, the runner). */
export interface ResolvedTarget extends PublicTarget {
  url: string;
  /** The Run.targetId to store: null for the default target. */
  storedId: string | null;
  /** Why it has no URL to probe yet (url is ""): the embedded replicated target before its first run; `refuse`: no run can start on it now. */
  pending?: { note: string; refuse: boolean };
}

function defaultUrl(): string {
  const url = readEnv().TARGET_DATABASE_URL;
  if (!url) throw new Error("TARGET_DATABASE_URL is not set: start the app with `npm start`, which provides it");
  return url;
}

/** This app's default target's name: "embedded default" when `npm start` runs its own Postgres (lib/targets/default-target.ts). */
export function currentDefaultTargetName(): string {
  const env = readEnv();
  return defaultTargetName({ embedded: env.TARGET_IS_EMBEDDED, url: env.TARGET_DATABASE_URL ?? "" });
}

function defaultTarget(): ResolvedTarget {
  const url = defaultUrl();
  return { id: DEFAULT_TARGET_ID, name: currentDefaultTargetName(), maskedUrl: maskUrl(url), isDefault: true, url, storedId: null };
}

/** The embedded replicated target when this app offers it: its URL once it runs, else why it has none yet. */
function replicatedTarget(): ResolvedTarget | null {
  const s = replicatedSettings();
  if (!s) return null;
  const st = replicatedState(s);
  const url = st.state === "running" ? st.url : "";
  const pending = replicatedPending(s, st);
  return {
    ...{ id: REPLICATED_TARGET_ID, name: s.name, maskedUrl: url && maskUrl(url), isDefault: false, url, storedId: null },
    replicated: { about: replicatedAbout(s, st), cli: replicatedTargetForCli(s) },
    ...(pending ? { pending } : {}),
  };
}

export const publicTarget = (t: PublicTarget): PublicTarget => ({
  ...{ id: t.id, name: t.name, maskedUrl: t.maskedUrl, isDefault: t.isDefault },
  ...(t.replicated ? { replicated: t.replicated } : {}),
});

/** The default target first, the embedded replicated one (when offered), then saved ones by name. Masked only. */
export async function listTargets(db: PrismaClient = prisma()): Promise<PublicTarget[]> {
  const saved = await db.target.findMany({ orderBy: { name: "asc" } });
  const replicated = replicatedTarget();
  return [
    publicTarget(defaultTarget()),
    ...(replicated ? [publicTarget(replicated)] : []),
    ...saved.map((t) => ({ id: t.id, name: t.name, maskedUrl: maskUrl(t.connectionString), isDefault: false })),
  ];
}

/** The virtual target ("default", "replicated") a run stored without a target id ran on, from its label; null for none. */
export function virtualTargetIdOf(label: string): string | null {
  if (label === currentDefaultTargetName()) return DEFAULT_TARGET_ID;
  return label === replicatedSettings()?.name ? REPLICATED_TARGET_ID : null;
}

/** The target for an id ("default", "replicated" or a saved id; undefined/null means default), or null if there is none. */
export async function resolveTarget(id: string | null | undefined, db: PrismaClient = prisma()): Promise<ResolvedTarget | null> {
  if (!id || id === DEFAULT_TARGET_ID) return defaultTarget();
  if (id === REPLICATED_TARGET_ID) return replicatedTarget();
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

export type AddTargetResult = { ok: true; target: PublicTarget; serverVersion: string; warnings: string[] } | { ok: false; errors: Record<string, string> };

/** The identity of the control store `db` talks to (lib/targets/connect.ts), to tell it from a target. */
export function controlStoreIdentity(db: PrismaClient = prisma()): Promise<ServerIdentity> {
  return readIdentity((sql) => db.$queryRawUnsafe(sql));
}

/**
 * Saves a target after checking its URL and connecting to it once (at most `timeoutMs`), so a typo or an
 * unreachable server is reported now, with the cause, rather than when a run starts. The control store's own
 * database is refused; a read-only one is saved with a warning (it may be made writable before a run).
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
  if (name === REPLICATED_TARGET_ID || isReplicatedTargetName(name))
    return { ok: false, errors: { name: `name "${name}" is the embedded replicated target's kind of name; choose another name` } };
  if (await db.target.findUnique({ where: { name } }))
    return { ok: false, errors: { name: `a target named "${name}" already exists; choose another name or delete that one` } };
  let info: TargetInfo;
  try {
    info = await targetInfo(connectionString, timeoutMs, await controlStoreIdentity(db));
  } catch (err) {
    return { ok: false, errors: { connectionString: `target: ${(err as Error).message}` } };
  }
  if (info.controlStore) return { ok: false, errors: { connectionString: `connectionString: ${info.controlStore}` } };
  const warnings = info.readOnly ? [`saved, but no run can use it yet: ${info.readOnly}`] : [];
  const row = await db.target.create({ data: { id: `t_${randomUUID().replace(/-/g, "").slice(0, 10)}`, name, connectionString } });
  return {
    ok: true,
    serverVersion: info.serverVersion,
    warnings,
    target: { id: row.id, name: row.name, maskedUrl: maskUrl(row.connectionString), isDefault: false },
  };
}

/**
 * Deletes a saved target. Refused while a queued or running run uses it: the run row's target_id would
 * become NULL (ON DELETE SET NULL), which means "default target", and the run would go to the wrong server.
 */
export async function deleteTarget(id: string, db: PrismaClient = prisma()): Promise<"deleted" | "missing" | "default" | "virtual" | "in-use"> {
  if (id === DEFAULT_TARGET_ID) return "default";
  if (id === REPLICATED_TARGET_ID) return "virtual";
  // The target's row is locked first: a launch inserting a run for it at the same moment either finished its
  // insert (its foreign-key check holds a lock this waits for, and the count below then sees the run) or waits
  // for this deletion and is refused (409, lib/targets/launch.ts). Without the lock, a run inserted between the
  // count and the delete lost its target and would have gone to the default one.
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM target WHERE id = ${id} FOR UPDATE`;
    if (!locked.length) return "missing";
    const busy = await tx.run.count({ where: { targetId: id, status: { in: ["queued", "running"] } } });
    if (busy) return "in-use";
    await tx.target.delete({ where: { id } });
    return "deleted";
  });
}

/** A target's version and connection budget (lib/targets/capacity.ts), as GET /api/targets/:id/info shows it. */
export interface TargetInfo extends ConnectionBudget {
  serverVersion: string;
  /** The most a run could ever open: the binding limit, connections in use not counted. */
  usable: number;
  /** What a run could open right now. */
  available: number;
  /** The limit that binds (max_connections, or the role's or the database's CONNECTION LIMIT) and why. */
  binding: { limit: LimitName; explain: string };
  /** Why no run can write there (default_transaction_read_only, a standby) and how to fix it; null when writable. */
  readOnly: string | null;
  /** Why the target is refused as the control store's own database; null when it is not. */
  controlStore: string | null;
}

/**
 * Connection limits of a target, read in one query (lib/targets/capacity.ts BUDGET_SQL), and whether a run
 * could use it: not read-only, not the control store (`control`, the app's own, when known).
 */
export async function targetInfo(url: string, timeoutMs = 5000, control?: ServerIdentity | null): Promise<TargetInfo> {
  let client: pg.Client | undefined;
  try {
    // Inside the try: the driver parses the URL here, and a missing sslkey file throws naming it.
    client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
    client.on("error", () => undefined);
    await client.connect();
    const { budget, row } = await readBudget(client);
    const ever = bindingLimit(budget, "ever");
    const facts = await readTargetFacts(client);
    return {
      serverVersion: row.version,
      ...budget,
      usable: ever.allows,
      available: bindingLimit(budget, "now").allows,
      binding: { limit: ever.limit, explain: ever.explain },
      readOnly: facts.readOnly,
      controlStore: controlStoreProblem(facts, control),
    };
  } catch (err) {
    throw new Error(connectFailure("cannot connect to", url, err), { cause: err });
  } finally {
    await client?.end().catch(() => undefined);
  }
}
