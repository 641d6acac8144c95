// PATCH {name?, notes?, tags?} on anything that carries labels (issue 33): a run, an A/B, a ladder, a ceiling search.
// One prologue for all: the path's id checked by shape, a JSON object with labels only, each checked by the one
// schema (lib/runs/labels.ts); then the store's update, or the 404 naming what does not exist.
import type { z } from "zod";
import { type Labels, LABEL_KEYS, type LabelsInput, parseLabels } from "@/lib/runs/labels";
import { quoteInput } from "@/lib/api/ids";
import { checkId, json, notFoundJson, readJsonObject } from "@/lib/api/http";

const EXAMPLE = JSON.stringify({ name: "pg18 baseline", notes: "after the vacuum change", tags: ["pg18", "baseline"] });

/**
 * `what`: how a message names the thing ("run", "A/B"); `update` stores the labels and answers the labels as stored,
 * or null when there is no such thing. 200 {id, name, notes, tags}, 400 {error, fields} naming each bad label.
 */
export async function patchLabels(
  req: Request,
  params: Promise<{ id: string }>,
  schema: z.ZodType<string>,
  what: string,
  update: (id: string, labels: LabelsInput) => Promise<Labels | null>,
): Promise<Response> {
  const checked = checkId(schema, (await params).id);
  if (!checked.ok) return checked.response;
  const body = await readJsonObject(req, EXAMPLE);
  if (!body.ok) return body.response;
  const unknown = Object.keys(body.body).filter((k) => !(LABEL_KEYS as readonly string[]).includes(k));
  if (unknown.length)
    return json(400, {
      error: `unknown field ${quoteInput(unknown[0])}: a ${what}'s name, notes and tags can be changed, nothing else`,
      fields: { [unknown[0].slice(0, 40) || "body"]: "not a label: send name, notes or tags" },
    });
  const labels = parseLabels(body.body);
  if (!labels.ok) return json(400, { error: Object.values(labels.fields)[0], fields: labels.fields });
  const stored = await update(checked.id, labels.labels);
  if (!stored) return notFoundJson(`${what} "${checked.id}"`);
  return json(200, { id: checked.id, ...stored });
}
