// A stored run as its exported report shows it: the run with its summary, every sample, and the reproducing command
// the run page prints (lib/runs/cli-target.ts). Server-only (the control store).
import type { RunReportInput } from "../../components/report/RunReport";
import type { Sample } from "../measurement/sample";
import { cliCommandOf, cliTargetOf } from "../runs/cli-target";
import type { getRun } from "../runs/store";
import { samplesAfter } from "../runs/store";
import { toRunView, toSample } from "../runs/view";

type RunRow = NonNullable<Awaited<ReturnType<typeof getRun>>>;

/** The report's input for a stored run (getRun's row). */
export async function runReportInput(row: RunRow): Promise<RunReportInput> {
  const run = toRunView(row, { withSummary: true });
  const samples = (await samplesAfter(row.id)).map(toSample).filter((s): s is Sample => s !== null);
  const cmd = cliCommandOf(run, await cliTargetOf(run));
  return { run, samples, command: cmd?.command ?? null, commandNote: cmd?.note };
}
