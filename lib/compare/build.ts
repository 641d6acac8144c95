// Builds the Comparable of lib/compare/comparable.ts from a stored run (its summary, histograms and samples), an imported
// tool output, or a published reference. Each keeps its own semantics, stated in its notes and facts.
// One file per adapter: ./from-run.ts, ./from-import.ts, ./from-reference.ts, ./from-published.ts, with the cells
// they share in ./build-parts.ts and a run's over-time points in ./over-time.ts.
export { NotComparable, relevantSettings, toolEffects, workloadShort } from "./build-parts";
export { fromImport, type ImportRecord } from "./from-import";
export { fromPublished } from "./from-published";
export { fromReference } from "./from-reference";
export { distributionPoints, fromRun, ranOnRunnerMachine, type RunRecord } from "./from-run";
export { MAX_TIME_POINTS, overTimeOf, type SampleRecord } from "./over-time";
