import assert from "node:assert/strict";
import { test } from "node:test";
import { parsePhase, phaseOutsideRun, Phases, phaseText } from "./shape";

const ok = (t: string) => {
  const r = parsePhase(t);
  assert.ok("phase" in r, `${t}: ${"error" in r ? r.error : ""}`);
  return r.phase;
};
const bad = (t: string) => {
  const r = parsePhase(t);
  assert.ok("error" in r, `${t} was taken`);
  return r.error;
};

test("a phase is written KIND@START+LENGTH and reads back as written", () => {
  assert.deepEqual(ok("hold-xmin@10s+20s"), { kind: "hold-xmin", startSec: 10, lengthSec: 20 });
  assert.deepEqual(ok("pause-workers@1m+1m30s"), { kind: "pause-workers", startSec: 60, lengthSec: 90 });
  assert.deepEqual(ok("kill-backend@30s"), { kind: "kill-backend", startSec: 30, lengthSec: 0 });
  for (const t of ["hold-xmin@10s+20s", "kill-backend@30s", "restart-target@0s+5s"]) assert.equal(phaseText(ok(t)), t);
});

test("a phase written wrong is refused with what is wrong and how to write it", () => {
  assert.match(bad("hold-xmin"), /is not a phase: write KIND@START\+LENGTH/);
  assert.match(bad("vacuum@1s+2s"), /"vacuum" is not a phase kind: use one of hold-xmin, long-reader/);
  assert.match(bad("hold-xmin@soon+2s"), /"soon" in .* is not a start time/);
  assert.match(bad("hold-xmin@10s"), /has no length: hold-xmin@10s\+20s/);
  assert.match(bad("kill-backend@10s+5s"), /acts at an instant: write it without a length/);
  assert.match(bad("hold-xmin@10s+0s"), /lasts 0 s/);
  assert.match(bad("hold-xmin@10s+1.5s"), /is not a length/);
});

test("a run's phases are put in order and may not overlap or leave the run", () => {
  const phases = Phases.parse([ok("pause-workers@40s+5s"), ok("hold-xmin@10s+20s")]);
  assert.deepEqual(
    phases.map((p) => p.startSec),
    [10, 40],
  );
  const overlap = Phases.safeParse([ok("hold-xmin@10s+20s"), ok("long-reader@25s+5s")]);
  assert.equal(overlap.success, false);
  assert.match(overlap.error?.issues[0].message ?? "", /phases overlap: long-reader@25s\+5s starts before hold-xmin@10s\+20s ends at 30 s/);
  assert.equal(phaseOutsideRun(ok("hold-xmin@10s+20s"), 60), null);
  assert.match(phaseOutsideRun(ok("hold-xmin@50s+20s"), 60) ?? "", /ends at 70 s, after the run's 60 s/);
  assert.match(phaseOutsideRun(ok("kill-backend@60s"), 60) ?? "", /starts at 60 s, after the run's 60 s/);
});
