// graphile-worker's hooks for the conformance suite: the queue libraries' (workloads/job-library/testing.ts).
export { jobLibraryHooks as hooks } from "../job-library/testing";
