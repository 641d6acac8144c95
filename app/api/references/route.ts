import { publishedResults, STUDIES } from "@/lib/references/published";
import { REFERENCE_ARTICLE_URL, REFERENCE_COMMIT, REFERENCE_REPO, REFERENCES, sourceUrl } from "@/lib/references/references";
import { withStoreErrors } from "@/lib/api/http";

export const dynamic = "force-static";

/** GET /api/references: the six published scenarios (hardware, Postgres, config, per-run numbers, headline, sources,
 *  caveats), and other studies' published results (`published`, from the workload registry). */
async function handleGET() {
  return Response.json({
    badge: "published",
    repo: REFERENCE_REPO,
    commit: REFERENCE_COMMIT,
    article: REFERENCE_ARTICLE_URL,
    references: REFERENCES.map((r) => ({ ...r, badge: "published", compareKey: `ref:${r.id}`, sourceUrl: sourceUrl(r.source) })),
    published: publishedResults().map((p) => ({ ...p, studyTitle: STUDIES[p.study].title, badge: "published", compareKey: `ref:${p.id}` })),
  });
}

export const GET = withStoreErrors(handleGET);
