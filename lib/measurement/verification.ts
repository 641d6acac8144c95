// A run's verification in its workload's own unit: how many items it checked ("35,080 rows checked"), the
// workload's named checks with their values (facts), and the findings in words. Browser-safe.
//
// Runs stored before this shape carry a broker's verification ({ lost, duplicated, outOfOrder, countsMatch }
// whatever the workload): the schema converts them when read, so every reader sees this shape. The unit of such
// a run comes from its workload's declaration (RunSummary fills it in with withVerificationUnit).
import { z } from "zod";
import { workloadDefinition } from "../workloads/config";
import { unitWords } from "../words";

/** One of a workload's own checks, named in its words ("lost", "rows in bench_inserts"), with its value. */
export const VerificationFact = z.object({
  name: z.string().min(1),
  value: z.union([z.number(), z.boolean()]),
  /** Whether this check passed. */
  ok: z.boolean(),
});
export type VerificationFact = z.infer<typeof VerificationFact>;

const Current = z.object({
  ok: z.boolean(),
  /** Items checked, counted in `unit`. */
  checked: z.number().int(),
  /** What one checked item is, singular ("message", "row", "workflow", "request", "job"): the workload's declaration. */
  unit: z.string().min(1),
  /** Human-readable findings, empty when ok. */
  problems: z.array(z.string()),
  /** The workload's own checks, in the order it reports them. */
  facts: z.array(VerificationFact),
});

/** The unit of a stored verification that predates units: pub/sub and queue counted messages. */
const OLD_UNIT = "message";

/** A broker's checks (pub/sub, queue, notify), as every verification before this shape stored them. */
export function brokerFacts(v: { lost: number; duplicated: number; outOfOrder: number; countsMatch: boolean }): VerificationFact[] {
  return [
    { name: "lost", value: v.lost, ok: v.lost === 0 },
    { name: "duplicated", value: v.duplicated, ok: v.duplicated === 0 },
    { name: "out of order", value: v.outOfOrder, ok: v.outOfOrder === 0 },
    { name: "runner counts match the target's rows", value: v.countsMatch, ok: v.countsMatch },
  ];
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);
const num = (x: unknown) => (typeof x === "number" ? x : 0);

/** An old stored verification in today's shape: its broker fields become facts (non-broker runs stored
 *  zeros for the broker's words, so only the count match, and any loss or duplicate they found, are kept). */
function fromOldShape(raw: unknown): unknown {
  if (!isRecord(raw) || "facts" in raw || typeof raw.countsMatch !== "boolean") return raw;
  const unit = typeof raw.unit === "string" ? raw.unit : OLD_UNIT;
  const old = { lost: num(raw.lost), duplicated: num(raw.duplicated), outOfOrder: num(raw.outOfOrder), countsMatch: raw.countsMatch };
  const facts = unit === OLD_UNIT ? brokerFacts(old) : brokerFacts(old).filter((f) => f.name === "runner counts match the target's rows" || f.value !== 0);
  return { ok: raw.ok, checked: raw.checked, unit, problems: raw.problems, facts };
}

export const Verification = z.preprocess(fromOldShape, Current);
export type Verification = z.infer<typeof Verification>;

/**
 * For a stored summary (before parsing): gives an old verification without a unit its workload's declared unit,
 * so an old insert run reads "rows checked", not "messages checked". Anything else passes through unchanged.
 */
export function withVerificationUnit(raw: unknown): unknown {
  if (!isRecord(raw) || !isRecord(raw.verification) || "unit" in raw.verification) return raw;
  const unit = typeof raw.workload === "string" ? workloadDefinition(raw.workload)?.verifiedUnit : undefined;
  return unit ? { ...raw, verification: { ...raw.verification, unit } } : raw;
}

/** A fact as every surface writes it: "lost: 0", "runner counts match the target's rows: yes". */
export function factText(f: VerificationFact): string {
  const value = typeof f.value === "boolean" ? (f.value ? "yes" : "NO") : f.value.toLocaleString("en-US");
  return `${f.name}: ${value}`;
}

/** The value of the fact of this name, or undefined when the verification has none. */
export const factOf = (v: Pick<Verification, "facts">, name: string) => v.facts.find((f) => f.name === name)?.value;

/** "35,080 rows checked": the count in the workload's unit. */
export const checkedText = (v: Verification) => `${v.checked.toLocaleString("en-US")} ${unitWords(v.unit, v.checked)} checked`;

/** The verification in one line: what was checked, then each fact ("35,080 rows checked · rows in bench_inserts: 35,080 · …"). */
export const verificationLine = (v: Verification) => [checkedText(v), ...v.facts.map(factText)].join(" · ");
