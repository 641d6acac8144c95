import assert from "node:assert/strict";
import { test } from "node:test";
import {
  parsePhase,
  parsePhases,
  phaseApplicationName,
  phaseOfApplication,
  phaseOutsideRun,
  Phases,
  phasesOf,
  phasesText,
  phaseText,
  PHASE_DOES,
  reconnectsOn,
  restartsTarget,
} from "./shape";

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
  for (const t of ["hold-xmin@10s+20s", "long-reader@0s+5s", "pause-workers@1m+1m"]) assert.equal(phaseText(ok(t)), t.replace("1m+1m", "60s+60s"));
});

test("a phase written wrong is refused with what is wrong and how to write it", () => {
  assert.match(bad("hold-xmin"), /is not a phase: write KIND@START\+LENGTH/);
  assert.match(bad("vacuum@1s+2s"), /"vacuum" is not a phase kind: use one of hold-xmin, long-reader/);
  assert.match(bad("hold-xmin@soon+2s"), /"soon" in .* is not a start time/);
  assert.match(bad("hold-xmin@10s"), /has no length: hold-xmin@10s\+20s/);
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
  assert.match(phaseOutsideRun(ok("pause-workers@60s+5s"), 60) ?? "", /starts at 60 s, after the run's 60 s/);
});

test("a run's phases are one line: commas or spaces between them, stored in order as one canonical line", () => {
  const r = parsePhases("pause-workers@40s+5s,  hold-xmin@10s+20s");
  assert.ok("phases" in r);
  assert.equal(phasesText(r.phases), "hold-xmin@10s+20s, pause-workers@40s+5s");
  assert.deepEqual(phasesOf({ phases: phasesText(r.phases) }), r.phases);
  assert.deepEqual(phasesOf({}), []);
  const bad = parsePhases("hold-xmin@10s+20s long-reader@25s+5s");
  assert.ok("error" in bad && /phases overlap/.test(bad.error));
  const many = parsePhases(Array.from({ length: 9 }, (_, i) => `pause-workers@${i * 10}s+1s`).join(" "));
  assert.ok("error" in many && /at most 8 phases/.test(many.error));
});

test("a phase's own connection is named for it, and the name reads back as the phase", () => {
  const p = ok("hold-xmin@10s+20s");
  assert.equal(phaseApplicationName(p), "pgbb phase hold-xmin@10s+20s");
  assert.equal(phaseOfApplication(phaseApplicationName(p)), "hold-xmin@10s+20s");
  assert.equal(phaseOfApplication("psql"), null);
  assert.equal(phaseOfApplication(undefined), null);
});

test("kill-backend acts at an instant: written without a length, refused with one, and reconnects the run's loops", () => {
  assert.deepEqual(ok("kill-backend@20s"), { kind: "kill-backend", startSec: 20, lengthSec: 0 });
  assert.equal(phaseText(ok("kill-backend@1m")), "kill-backend@60s");
  assert.match(bad("kill-backend@20s+5s"), /^kill-backend acts at an instant: write it without a length, e\.g\. kill-backend@20s$/);
  assert.ok(reconnectsOn([ok("hold-xmin@1s+2s"), ok("kill-backend@5s")]));
  assert.ok(!reconnectsOn([ok("hold-xmin@1s+2s"), ok("pause-workers@5s+2s")]));
  // An instant ends where it starts: the next phase may start at the same second's end, not before it.
  const r = parsePhases("kill-backend@5s, kill-backend@6s");
  assert.ok("phases" in r, JSON.stringify(r));
});

test("restart-target acts at an instant, reconnects the run's loops and is the one kind that takes the target down", () => {
  assert.deepEqual(ok("restart-target@30s"), { kind: "restart-target", startSec: 30, lengthSec: 0 });
  assert.match(bad("restart-target@30s+10s"), /^restart-target acts at an instant: write it without a length, e\.g\. restart-target@30s$/);
  assert.ok(reconnectsOn([ok("restart-target@5s")]));
  assert.ok(restartsTarget([ok("hold-xmin@1s+2s"), ok("restart-target@5s")]));
  assert.ok(!restartsTarget([ok("kill-backend@5s")]));
  assert.match(PHASE_DOES["restart-target"], /only an embedded target this product started here/);
});
