import { listRuns } from "@/lib/runs";
import { toRunView } from "@/lib/run-view";
import { RUN_STATUSES } from "@/lib/metrics";
import { launchRun } from "@/lib/launch";
import { json, readJsonObject } from "./_http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** GET /api/runs[?workload=pubsub|queue][&status=completed,…]: every run, newest first, with headline numbers. */
export async function GET(req: Request) {
  const q = new URL(req.url).searchParams;
  const workload = q.get("workload");
  const statuses = q.get("status")?.split(",").filter(Boolean) ?? [];
  if (workload && workload !== "pubsub" && workload !== "queue")
    return json(400, { error: `workload "${workload}" is unknown; use pubsub or queue` });
  const bad = statuses.find((s) => !(RUN_STATUSES as readonly string[]).includes(s));
  if (bad) return json(400, { error: `status "${bad}" is unknown; use one or more of ${RUN_STATUSES.join(", ")}` });
  const runs = (await listRuns())
    .filter((r) => r.source !== "import")
    .filter((r) => !workload || r.workload === workload)
    .filter((r) => !statuses.length || statuses.includes(r.status))
    .map((r) => toRunView(r));
  return json(200, { runs });
}

const EXAMPLE = '{"config":{"kind":"pubsub","writers":4,"partitions":4,"durationSeconds":30},"targetId":"default"}';

/**
 * POST /api/runs {config, targetId?}: validates with the same schema as the form and the CLI, checks the
 * target is reachable and has room for the run's connections, queues the run. 201 {id, url}, or 400
 * {error, fields: {<field>: <message>}}.
 */
export async function POST(req: Request) {
  const body = await readJsonObject(req, EXAMPLE);
  if (!body.ok) return body.response;
  const r = await launchRun(body.body);
  if (!r.ok) return json(400, { error: r.error, fields: r.fields });
  return json(201, { id: r.id, url: `/runs/${r.id}` }, { location: `/runs/${r.id}` });
}
