// Search's hooks for the conformance suite (workloads/exercise/): the corpus is seeded and never written, so an
// article deleted is lost. Its runs use a small corpus (10,000 articles by default, whose ILIKE scans on a busy
// machine could end no request in a short run).
import { rowDeleted, type WorkloadHooks } from "../hooks";

export const hooks: WorkloadHooks = {
  faults: { loss: rowDeleted("articles", /^the articles table holds \d+ rows, not the \d+ of the seeded corpus/) },
  small: (input) => ({ ...input, articles: 500, vus: 4, pool: 4 }),
  splits: [{ vus: 9, pool: 4, articles: 200 }],
};
