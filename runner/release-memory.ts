// Giving a finished run's memory back. A run's batches are dead once runWorkload returns, but V8 frees them
// only at its next full collection, and an idle runner (polling the control store with small allocations)
// may not have one for hours: a 1 writer × batch 50 × 10 MiB run kept 1.69 GB after it ended. So the runner
// asks for one full collection between runs. The gc function comes from --expose-gc set at run time, in a
// fresh context, so neither `npm start` nor the CLI needs a node flag.
import v8 from "node:v8";
import vm from "node:vm";

let gc: (() => void) | undefined;

/** Collects garbage now (a few milliseconds for the runner's heap; longer only when there is much to free). */
export function releaseMemory(): void {
  if (!gc) {
    v8.setFlagsFromString("--expose-gc");
    gc = vm.runInNewContext("gc") as () => void;
  }
  // Twice: measured after a queue run (scripts/bench-memory.ts --payload-run), one collection left 31 MiB of
  // its Buffers in place, a second freed them (objects with finalisers go a collection after they die).
  gc();
  gc();
}
