// Whether a run's phases fit it, as the form, the API and the CLI all ask (parseConfig), and the reproducing command
// that carries them back (one --phase each).
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseArgs } from "../../runner/cli-args";
import { toCliCommand } from "../runs/cli-command";
import { parseConfig } from "../workloads/config";
import { phasesProblem } from "./fit";

const errorsOf = (input: Record<string, unknown>) => {
  const r = parseConfig(input);
  return r.ok ? {} : r.errors;
};

test("phases are checked against the run: inside its load, in one process, a pause only where there are workers", () => {
  const queue = { kind: "queue", warmupSeconds: 5, durationSeconds: 30 };
  assert.deepEqual(errorsOf({ ...queue, phases: "hold-xmin@10s+20s, pause-workers@31s+4s" }), {});
  assert.match(errorsOf({ ...queue, phases: "hold-xmin@30s+10s" }).phases ?? "", /ends at 40 s, after the run's 35 s: shorten it or run longer/);
  assert.match(errorsOf({ ...queue, processes: 2, phases: "hold-xmin@10s+5s" }).phases ?? "", /runs in one runner process: set processes to 1/);
  assert.match(
    errorsOf({ kind: "inserts", warmupSeconds: 0, durationSeconds: 30, phases: "pause-workers@5s+5s" }).phases ?? "",
    /pause-workers@5s\+5s: a .* run has no workers a phase can pause/,
  );
  assert.deepEqual(errorsOf({ kind: "inserts", warmupSeconds: 0, durationSeconds: 30, phases: "hold-xmin@5s+5s" }), {});
  // A killed backend only where the workload reconnects and settles what was in flight.
  assert.deepEqual(errorsOf({ ...queue, phases: "kill-backend@10s" }), {});
  // Every built-in workload reconnects now (the four last: notify, mixed, workflows and queued-workflows).
  for (const kind of ["notify", "mixed", "workflows", "queued-workflows", "inserts"])
    assert.deepEqual(errorsOf({ kind, warmupSeconds: 0, durationSeconds: 30, phases: "kill-backend@5s" }), {}, kind);
  // A workload whose definition does not say how it reconnects is refused, in words.
  const shape = { warmupSeconds: 0, durationSeconds: 30, phases: "kill-backend@5s" };
  assert.match(
    phasesProblem(shape, { title: "new", pausable: undefined, reconnects: undefined }) ?? "",
    /^kill-backend@5s: a new run does not yet reconnect and settle the operations in flight when it loses a connection, so it would fail; use another kind, or a workload that reconnects \(every built-in workload does\)$/,
  );
  assert.equal(phasesProblem(shape, { title: "new", pausable: undefined, reconnects: "its connections reconnect" }), null);
  // A restart of the target, as a killed backend, only where the workload reconnects; its target is checked at launch.
  assert.deepEqual(errorsOf({ ...queue, phases: "restart-target@10s" }), {});
  assert.match(
    phasesProblem({ ...shape, phases: "restart-target@5s" }, { title: "new", pausable: undefined, reconnects: undefined }) ?? "",
    /^restart-target@5s: a new run does not yet reconnect and settle the operations in flight when it loses a connection, so it would fail; use another kind/,
  );
  assert.match(
    errorsOf({ kind: "graphile-worker", warmupSeconds: 0, durationSeconds: 30, phases: "restart-target@5s" }).phases ?? "",
    /restart-target@5s: graphile-worker does not survive every connection going at once: .*; use kill-backend, or another workload$/,
  );
  assert.deepEqual(errorsOf({ kind: "graphile-worker", warmupSeconds: 0, durationSeconds: 30, phases: "kill-backend@5s" }), {});
  assert.match(
    errorsOf({ kind: "pg-boss", warmupSeconds: 0, durationSeconds: 30, phases: "restart-target@5s" }).phases ?? "",
    /restart-target@5s: pg-boss does not reliably survive every connection going at once: .*; use kill-backend, or another workload$/,
  );
  // Written wrong: the schema's message under the field, naming how to write it.
  assert.match(errorsOf({ ...queue, phases: "hold-xmin@10s" }).phases ?? "", /^Phases: "hold-xmin@10s" has no length: hold-xmin@10s\+20s holds it for 20 s/);
  assert.match(errorsOf({ ...queue, phases: "vacuum@1s+1s" }).phases ?? "", /"vacuum" is not a phase kind: use one of hold-xmin, long-reader, pause-workers/);
});

test("--phase is repeatable on the CLI, stored as one line in order, and the reproducing command gives one --phase each", () => {
  const r = parseArgs(["queue", "-duration", "60s", "--phase", "pause-workers@40s+5s", "--phase", "hold-xmin@10s+20s"]);
  assert.equal(r.kind, "run", JSON.stringify(r));
  if (r.kind !== "run") return;
  assert.equal(r.options.config.phases, "hold-xmin@10s+20s, pause-workers@40s+5s");
  const cmd = toCliCommand(r.options.config);
  assert.match(cmd, /--phase hold-xmin@10s\+20s --phase pause-workers@40s\+5s/);
  const again = parseArgs(cmd.replace(/^npm run bench -- /, "").split(" "));
  assert.equal(again.kind === "run" && again.options.config.phases, "hold-xmin@10s+20s, pause-workers@40s+5s");
  const wrong = parseArgs(["queue", "-duration", "10s", "--warmup", "0s", "--phase", "hold-xmin@8s+5s"]);
  assert.equal(wrong.kind, "error");
  assert.match(wrong.kind === "error" ? wrong.message : "", /-phase: hold-xmin@8s\+5s ends at 13 s, after the run's 10 s/);
});
