import { z } from "zod";
import { firstFieldErrors, quoteInput, WorkloadFilter } from "@/lib/api/ids";
import { listRunRows } from "@/lib/runs/store";
import { toRunView } from "@/lib/runs/view";
import { RUN_STATUSES } from "@/lib/measurement/metrics";
import { launchRun } from "@/lib/targets/launch";
import { workloadDefinitions } from "@/lib/workloads/config";
import { json, readJsonObject, withStoreErrors } from "@/lib/api/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const RunsQuery = z.object({
  workload: WorkloadFilter,
  status: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const list = v?.split(",").filter(Boolean) ?? [];
      const bad = list.find((s) => !(RUN_STATUSES as readonly string[]).includes(s));
      if (bad) ctx.addIssue({ code: "custom", message: `status ${quoteInput(bad)} is unknown; use one or more of ${RUN_STATUSES.join(", ")}` });
      return list;
    }),
});

/** GET /api/runs[?workload=<kind>][&status=completed,…]: every run, newest first, with headline numbers. */
async function handleGET(req: Request) {
  const q = new URL(req.url).searchParams;
  const parsed = RunsQuery.safeParse({ workload: q.get("workload") || undefined, status: q.get("status") ?? undefined });
  if (!parsed.success) {
    const fields = firstFieldErrors(parsed.error, "query");
    return json(400, { error: Object.values(fields)[0], fields });
  }
  const rows = await listRunRows({ workload: parsed.data.workload, statuses: parsed.data.status });
  return json(200, { runs: rows.map((r) => toRunView(r)) });
}

// A body that parses, in the bad-JSON message: the first workload with knobs every workload has.
const EXAMPLE = JSON.stringify({ config: { kind: workloadDefinitions()[0].kind, writers: 4, durationSeconds: 30 }, targetId: "default" });

/**
 * POST /api/runs {config, targetId?}: validates with the same schema as the form and the CLI, checks the
 * target is reachable and has room for the run's connections, queues the run. 201 {id, url}, or 400
 * {error, fields: {<field>: <message>}}; 409 {error, fields: {targetId}} when its saved
 * target was deleted meanwhile.
 */
async function handlePOST(req: Request) {
  const body = await readJsonObject(req, EXAMPLE);
  if (!body.ok) return body.response;
  const r = await launchRun(body.body);
  if (!r.ok) return json(r.status ?? 400, { error: r.error, fields: r.fields });
  return json(201, { id: r.id, url: `/runs/${r.id}` }, { location: `/runs/${r.id}` });
}

export const GET = withStoreErrors(handleGET);
export const POST = withStoreErrors(handlePOST);
