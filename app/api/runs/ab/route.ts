import { hasVariants, variantInputs } from "@/lib/compare/ab";
import { launchRun } from "@/lib/targets/launch";
import { requestCancel } from "@/lib/runs/store";
import { json, readJsonObject, withStoreErrors } from "@/lib/api/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const EXAMPLE = '{"config":{"kind":"cache","vus":20,"durationSeconds":10},"targetId":"default"}';

/**
 * POST /api/runs/ab {config, targetId?}: "Run baseline and modded". Queues the config's baseline variant, then
 * its modded variant (same load, same target; the runner takes queued runs oldest first, one at a time, so they
 * run back to back), each validated as POST /api/runs does. 201 {baseline, modded, url}: `url` is the page that
 * follows both and compares them. 400 {error, fields} when the workload has no variants or a run is refused; 409 when
 * the target was deleted meanwhile.
 */
async function handlePOST(req: Request) {
  const body = await readJsonObject(req, EXAMPLE);
  if (!body.ok) return body.response;
  const config = body.body.config as Record<string, unknown> | undefined;
  const kind = typeof config === "object" && config !== null ? String(config.kind) : "";
  if (!hasVariants(kind))
    return json(400, {
      error: "no variants",
      fields: { kind: `${kind ? `the ${kind} workload` : "this workload"} has no baseline and modded variants: launch it with POST /api/runs` },
    });
  const inputs = variantInputs(config as Record<string, unknown>);
  const baseline = await launchRun({ ...body.body, config: inputs.baseline });
  if (!baseline.ok) return json(baseline.status ?? 400, { error: baseline.error, fields: baseline.fields });
  const modded = await launchRun({ ...body.body, config: inputs.modded });
  if (!modded.ok) {
    // Half a pair is not what was asked for: the baseline is withdrawn before it starts (or stopped if it has).
    await requestCancel(baseline.id).catch(() => undefined);
    return json(modded.status ?? 400, { error: modded.error, fields: modded.fields });
  }
  const url = `/runs/ab?baseline=${baseline.id}&modded=${modded.id}`;
  return json(201, { baseline: baseline.id, modded: modded.id, url }, { location: url });
}

export const POST = withStoreErrors(handlePOST);
