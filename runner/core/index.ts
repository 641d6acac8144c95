// The engine core's public surface: the one runner/ module a workload may import (workloads/boundary.test.ts
// checks every spelling of every import). Re-exports only, by name, of the modules beside it in runner/core/, so
// the hot paths are the same functions and the surface is exactly this list. The core is a layer beneath the
// runner: nothing here reaches workloads/, lib/workloads/ or the rest of runner/ (./layer.test.ts follows every
// import to be sure); the runner's own modules (the engine, the parts) import the files here directly.

// Pacing: a run's declared pacing and the pacers built from it (a workload supplies only its operations), the
// open loop with a drain, and their clock.
export { Metronome, type PacedOperation, Pacer, type PaceClock, type Pacing, realClock, Slot } from "./pacing";
export { drainNotes, mergeOpenLoopResults, OpenLoop, type OpenLoopResult } from "./open-loop";
// Timing and stopping: the clock (for timing operations, not for pacing them), stop signals, a reader's back-off.
export { Backoff, clock, Pause, Stopper } from "./timing";
// The target's clients: a loop's connection, and the helpers every loop uses on it.
export { isConnectionError, libraryApplicationName, openClient, rollbackQuietly, type TargetClient, withApplicationName } from "./pg/pgclient";
// Statements sent without node-postgres's per-query work (the broker loops' hot path).
export { LeanQuery } from "./pg/leanquery";
export { bindExecuteMessage } from "./pg/protocol";
// The recorders a workload counts and times its operations with.
export { type Counter, type GroupStats, type Operation, type OperationOptions, RunStats } from "./stats";
// What a run leaves on the target outside its schema, undone at tear-down.
export type { RunFootprint } from "./footprint";
