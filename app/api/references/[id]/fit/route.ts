import { publishedById, publishedConfig } from "@/lib/references/published";
import { fitWarnings, referenceById, referenceWorkload } from "@/lib/references/references";
import { serverFacts } from "@/lib/references/fit";
import { TargetId } from "@/lib/api/ids";
import { DEFAULT_TARGET_ID, type ResolvedTarget, resolveTarget } from "@/lib/targets/store";
import { replicatedSettings } from "@/lib/targets/replicated";
import { fieldErrors, WorkloadConfig } from "@/lib/workloads/config";
import { readEnv } from "@/lib/env";
import { withStoreErrors } from "@/lib/api/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// Problems inside the config are named by their field; a config that is not an object at all by "config".
function fieldsOfConfig(err: Parameters<typeof fieldErrors>[0]): Record<string, string> {
  const fields = fieldErrors(err);
  if (fields._ !== undefined) {
    fields.config = fields._;
    delete fields._;
  }
  return fields;
}

type Ctx = { params: Promise<{ id: string }> };
const noStore = { "cache-control": "no-store" };

/**
 * GET /api/references/:id/fit[?targetId=default][&config=<WorkloadConfig JSON>]: why the reference's config (or
 * an edited one) may not fit the target and this machine: {warnings: [{field?, severity, text}], server}.
 */
async function handleGET(req: Request, { params }: Ctx) {
  const { id } = await params;
  // Kozlovski's scenarios, or another study's published result (whose fit is the generic one: connections, length).
  const ref = referenceById(id);
  const published = ref ? undefined : publishedById(id);
  if (!ref && !published) return Response.json({ error: `reference "${id}" does not exist` }, { status: 404, headers: noStore });
  const q = new URL(req.url).searchParams;
  const own = ref ? ({ ok: true, config: referenceWorkload(ref) } as const) : publishedConfig(published!);
  if (!own.ok) return Response.json({ error: own.error }, { status: 500, headers: noStore });
  let config = own.config;
  const raw = q.get("config");
  if (raw) {
    let input: unknown;
    try {
      input = JSON.parse(raw);
    } catch {
      return Response.json(
        { error: 'config must be a JSON WorkloadConfig, e.g. config={"kind":"queue","writers":10}', fields: { config: "not JSON" } },
        { status: 400, headers: noStore },
      );
    }
    const r = WorkloadConfig.safeParse(input);
    if (!r.success) return Response.json({ error: "config is not valid", fields: fieldsOfConfig(r.error) }, { status: 400, headers: noStore });
    config = r.data;
  }
  const targetId = q.get("targetId");
  if (targetId !== null) {
    const checked = TargetId.safeParse(targetId);
    if (!checked.success)
      return Response.json(
        { error: checked.error.issues[0].message, fields: { targetId: checked.error.issues[0].message } },
        { status: 400, headers: noStore },
      );
  }
  const target = await resolveTarget(targetId);
  if (!target) return Response.json({ error: `target "${q.get("targetId")}" does not exist` }, { status: 404, headers: noStore });
  try {
    const server = await factsOf(target);
    return Response.json(
      { reference: id, target: { id: target.id, name: target.name }, server, warnings: fitWarnings(config, server, ref) },
      { headers: noStore },
    );
  } catch (err) {
    return Response.json({ error: (err as Error).message }, { status: 502, headers: noStore });
  }
}

/**
 * The target's facts. The embedded replicated target is on this machine as the embedded default is; before its first
 * run its primary is not there to ask, and the embedded default, a server of the same binaries and settings, answers
 * for its limits (with no connection in use, as a fresh server has).
 */
async function factsOf(target: ResolvedTarget) {
  const embedded = (target.isDefault || !!target.replicated) && readEnv().TARGET_IS_EMBEDDED;
  const replicated = target.replicated ? replicatedSettings() : null;
  const cluster = replicated ? { replicated: { nodes: replicated.replicas + 1, delayMs: replicated.replicaDelayMs } } : {};
  if (!target.pending) return { ...(await serverFacts(target.url, { targetIsEmbedded: embedded })), ...cluster };
  const alike = await serverFacts((await resolveTarget(DEFAULT_TARGET_ID))!.url, { targetIsEmbedded: embedded });
  return { ...alike, connectionsInUse: 0, role: undefined, database: undefined, ...cluster };
}

export const GET = withStoreErrors(handleGET);
