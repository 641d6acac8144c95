// Batches are declared as sent: every workload a ceiling search can raise declares, in writeBatch(config), the
// number of paced writes its runner sends on one scheduled time (the step verdict's rounding tolerance is one
// such batch). Checked on a short real run of each: the writes counted over the distinct scheduled times the
// runner reported (RunStats.onScheduledWrite). A workload that reports none paces one request per scheduled
// time (Yong's and DBOS's workflows: a timetable of single requests), which is what it must then declare.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { testDatabase } from "../testing";
import { definitionOf, WorkloadConfig, workloadDefinitions } from "../workloads/config";
import { writeBatchOf } from "../../workloads/types";
import { runWorkload } from "../../runner/engine";
import { throughputOf } from "../measurement/operations";
import { rateKnob } from "./rate";

let db: { url: string; drop: () => Promise<void> };
before(async () => {
  db = await testDatabase("batches");
});
after(async () => db.drop());

/** A low rate every workload keeps up with on a busy machine: about 20 scheduled times a second (a batch each). */
const TIMES_PER_SECOND = 20;
/** What this test does not measure is made small: search's corpus (10,000 articles by default, whose ILIKE scans
 *  on a CI machine busy with other suites could end no request inside a 2 s window). */
const SMALLER: Record<string, Record<string, unknown>> = { search: { articles: 500 } };

describe("declared write batch = the batch each workload sends", () => {
  for (const def of workloadDefinitions()) {
    const knob = rateKnob(def.kind);
    if (!knob) continue;
    test(def.kind, async () => {
      const base = WorkloadConfig.parse({ kind: def.kind, durationSeconds: 2, warmupSeconds: 0, ...SMALLER[def.kind] });
      const declared = writeBatchOf(definitionOf(base), base as never);
      const config = { ...knob.set(base, TIMES_PER_SECOND * declared), durationSeconds: 2, warmupSeconds: 0 } as WorkloadConfig;
      // The scheduled times of the writes that ended in the measured window, as the summary counts them.
      const dues = new Set<number>();
      let measuring = false;
      const summary = await runWorkload(config, db.url, {
        drainSeconds: 5,
        onPhase: (p) => void (measuring = p === "measuring"),
        onScheduledWrite: (due) => void (measuring && dues.add(due)),
      });
      const written = throughputOf(summary, knob.paced)?.count ?? 0;
      assert.ok(written > 0, `${def.kind}: nothing was written`);
      const sent = dues.size ? written / dues.size : 1;
      // One scheduled time more or less at the window's ends: within 20% of the declaration at 40 times.
      assert.ok(
        Math.abs(sent / declared - 1) < 0.2,
        `${def.kind} sends ${sent.toFixed(2)} paced writes per scheduled time (${written} over ${dues.size}) but declares a write batch of ${declared}`,
      );
    });
  }
});
