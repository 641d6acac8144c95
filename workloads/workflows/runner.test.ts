// The workflows workload on the embedded Postgres: every workflow started is SUCCESS at the end, the rows are
// the starts counted, each step left its checkpoint, the schema is the profile's; tampering is caught.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Kpis, VerificationPanel } from "../../components/run/RunResult";
import type { RunSummary } from "../../lib/measurement/summary";
import { summaryText, verificationError } from "../../runner/harness";
import { WORKFLOW_STATUS_SHAPE } from "../dbos/schema";
import { dbosTestTarget, sleep } from "../dbos/testing";
import { throughputOf, latencyOf } from "../../lib/measurement/operations";

let t: Awaited<ReturnType<typeof dbosTestTarget>>;
before(async () => {
  t = await dbosTestTarget("workflows");
});
after(() => t.close());

/** The run page's headline and verification panel and the CLI's text: each counts workflows, none messages. */
function assertCheckedInWorkflows(s: RunSummary) {
  const checked = new RegExp(`\\b${s.verification.checked.toLocaleString("en-US")} workflows checked`);
  for (const shown of [
    renderToStaticMarkup(createElement(Kpis, { summary: s })),
    renderToStaticMarkup(createElement(VerificationPanel, { v: s.verification })),
    summaryText(s, "embedded default"),
  ]) {
    assert.match(shown, checked);
    assert.doesNotMatch(shown, /messages? checked/);
  }
}

for (const profile of ["2.17", "current"] as const) {
  test(`profile ${profile}, 2 steps: every workflow final, counts equal rows, the profile's columns and indexes`, async () => {
    await t.run({ kind: "workflows", rate: 100, connections: 4, steps: 2, profile, durationSeconds: 2, warmupSeconds: 0 }, undefined, async (schema, s) => {
      assert.equal(s.verification.ok, true, verificationError(s) ?? "");
      assertCheckedInWorkflows(s);
      const n = await t.count(`SELECT count(*) AS n FROM ${schema}.workflow_status`);
      // The timetable starts 100 a second over the measured window's real length (a busy machine stretches it by a
      // tick), with a few started at its edges; it starts with the loops, a moment before the window opens.
      const due = 100 * s.window.measuredSeconds;
      assert.ok(Math.abs(n - due) <= 5 + 0.06 * due, `workflows ${n}, ${due.toFixed(1)} due in the ${s.window.measuredSeconds} s window`);
      assert.equal(await t.count(`SELECT count(*) AS n FROM ${schema}.workflow_status WHERE status = 'SUCCESS'`), n);
      assert.equal(await t.count(`SELECT count(*) AS n FROM ${schema}.operation_outputs`), 2 * n);
      // Writes: start + 2 checkpoints + completion per workflow; reads: one per step.
      assert.equal(s.totals!.operations.write, 4 * n);
      // In the measured window: two reads a workflow, give or take the workflows the window's edges cut.
      assert.ok(Math.abs(throughputOf(s, "stepRead")!.count - 2 * throughputOf(s, "workflow")!.count) <= 2 * 4, `${throughputOf(s, "stepRead")!.count} reads`);
      assert.ok(latencyOf(s, "workflow")!.count === throughputOf(s, "workflow")!.count);
      assert.ok(latencyOf(s, "workflowScheduled")!.p50 >= latencyOf(s, "workflow")!.p50);
      assert.match((s.notes ?? []).join("\n"), /drain time \d+\.\d{3} s \(> 0 means the database could not keep up\)/);
      const bare = schema.replace(/"/g, "");
      const cols = await t.count(`SELECT count(*) AS n FROM information_schema.columns WHERE table_schema = '${bare}' AND table_name = 'workflow_status'`);
      const idx = await t.count(`SELECT count(*) AS n FROM pg_indexes WHERE schemaname = '${bare}' AND tablename = 'workflow_status'`);
      assert.deepEqual({ columns: cols, indexes: idx }, WORKFLOW_STATUS_SHAPE[profile]);
      // The values are the library's: executor and version set, pickled inputs and output.
      const row = (await t.admin.query(`SELECT * FROM ${schema}.workflow_status LIMIT 1`)).rows[0];
      assert.equal(row.name, "steps_workflow");
      assert.equal(row.output, "gARLAS4=");
      assert.equal(row.recovery_attempts, "1");
      assert.match(row.executor_id, /^[0-9a-f-]{14}7/);
      if (profile === "current") assert.equal(row.application_name, "dbos-bench");
    });
  });
}

test("a workflow set back to PENDING, or one deleted, fails verification", async () => {
  await t.run(
    { kind: "workflows", rate: 100, connections: 2, durationSeconds: 2, warmupSeconds: 0 },
    async (schema) => {
      await sleep(700);
      await t.admin.query(
        `UPDATE ${schema}.workflow_status SET status = 'PENDING' WHERE workflow_uuid = (SELECT workflow_uuid FROM ${schema}.workflow_status WHERE status = 'SUCCESS' LIMIT 1)`,
      );
      await t.admin.query(
        `DELETE FROM ${schema}.workflow_status WHERE workflow_uuid = (SELECT workflow_uuid FROM ${schema}.workflow_status WHERE status = 'SUCCESS' LIMIT 1)`,
      );
    },
    async (_schema, s) => {
      assert.equal(s.verification.ok, false);
      assert.equal(s.verification.facts.find((f) => f.name === "workflows in workflow_status")?.ok, false);
      const p = s.verification.problems.join("\n");
      assert.match(p, /workflow_status holds [\d,]+ workflows but [\d,]+ starts were counted as committed/);
      assert.match(p, /1 workflow is not final \(status other than SUCCESS\)/);
      assert.match(p, /[\d,]+ workflows are SUCCESS but [\d,]+ completions were counted as committed/);
    },
  );
});
