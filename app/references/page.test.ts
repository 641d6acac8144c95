// The references page counts what it lists from the data: never "six scenarios" above two dozen results.
import assert from "node:assert/strict";
import Module from "node:module";
import { test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { publishedResults } from "@/lib/references/published";
import { REFERENCES } from "@/lib/references/references";

// The page's components import their stylesheets, which Next bundles; here a stylesheet is loaded as nothing.
(Module as unknown as { _extensions: Record<string, () => void> })._extensions[".css"] = () => {};

test("the page's count is the number of published results it shows, over every study", async () => {
  const { default: ReferencesPage } = await import("./page");
  const html = renderToStaticMarkup(createElement(ReferencesPage));
  const total = REFERENCES.length + publishedResults().length;
  const intro = /data-testid="references-count"[^>]*>([\s\S]*?)<\/p>/.exec(html)?.[1].replace(/<[^>]+>/g, "") ?? "";
  assert.match(intro, new RegExp(`^${total} published results from \\d+ studies: ${REFERENCES.length} scenarios of `), intro);
  assert.doesNotMatch(html, /\bsix\b/i);
  // Every result counted is on the page: the Kozlovski rows and each other study's cards.
  for (const r of REFERENCES) assert.ok(html.includes(`data-ref="${r.id}"`), r.id);
  for (const p of publishedResults()) assert.ok(html.includes(p.id), p.id);
});
