// A verification fact of a run's summary by its name (lib/measurement/verification.ts): what workloads' hooks
// (workloads/<kind>/testing.ts) assert on beside the suite's own checks.
import type { RunSummary } from "../../lib/measurement/summary";

export const factOf = (s: RunSummary, name: string) => s.verification.facts.find((f) => f.name === name)?.value;
