// What a workload's tests drive from above (workloads/boundary.test.ts lets only test files import it): the
// engine, the CLI's parser and the summary's text. Workload code itself imports runner/core only.
export { runWorkload, verificationError } from "./engine";
export { parseArgs, usage, workloadUsage } from "./cli-args";
export { summaryText } from "./format";
// A simulated clock for driving the core's pacers (runner/core/pacing.ts) in tests.
export { FakeClock } from "./core/fake-clock";
// The target's footprint a workload's context carries (tests build contexts of their own).
export { RunFootprint } from "./core/footprint";
// The load step (./load.ts) and what it runs with: the test harness drives parts through it in one process.
export { runLoad, writerIndexOf } from "./load";
export { sharedTimeline } from "./load-timeline";
export { RunnerLoadMeter } from "./load-meter";
export { RunControl } from "./run-control";
