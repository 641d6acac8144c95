// Mixed's hooks for the conformance suite (workloads/exercise/): its workloads verify on one schema, each problem
// named by its workload; a cache key deleted is lost.
import { rowDeleted, type WorkloadHooks } from "../hooks";

export const hooks: WorkloadHooks = {
  faults: { loss: rowDeleted("cache_entries", /^cache: 1 key missing from cache_entries/) },
  small: (input) => ({ ...input, cacheVus: 2, searchVus: 1, notifyVus: 1, producers: 1, consumers: 1, pool: 4, articles: 200, thinkMs: 0 }),
  splits: [
    { cacheVus: 3, searchVus: 2, notifyVus: 2, producers: 2, consumers: 1, pool: 5, articles: 200 },
    { load: "rate", rate: 400, pool: 6, articles: 200 },
  ],
};
