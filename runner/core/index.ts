// The engine core's public surface: the one runner/ module a workload may import (workloads/boundary.test.ts
// checks every spelling of every import). Re-exports only, by name, so the hot paths are the same functions
// as before and the surface is exactly this list.

// Pacing: the pacers a run's declared pacing builds (a workload supplies only its operations), the open loop
// with a drain, and their clock.
export { Metronome, type PacedOperation, Pacer, type PaceClock, realClock, Slot } from "../pacing";
export { drainNotes, mergeOpenLoopResults, OpenLoop, type OpenLoopResult } from "../open-loop";
// Timing and stopping: the clock (for timing operations, not for pacing them), stop signals, a reader's back-off.
export { Backoff, clock, Stopper } from "../timing";
// The target's clients: a loop's connection, and the helpers every loop uses on it.
export { isConnectionError, openClient, rollbackQuietly, type TargetClient } from "../pg/pgclient";
// Statements sent without node-postgres's per-query work (the broker loops' hot path).
export { LeanQuery } from "../pg/leanquery";
export { bindExecuteMessage } from "../pg/protocol";
// The recorders a workload counts and times its operations with.
export { type Counter, type GroupStats, type Operation, type OperationOptions, RunStats } from "../stats";
// What a run leaves on the target outside its schema, undone at tear-down.
export type { RunFootprint } from "../footprint";
// Numbers in words, for a workload's own CLI text (the queued-workflows sweep).
export { msText, num } from "../format";
