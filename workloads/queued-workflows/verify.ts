// Verification of a queued-workflows run (server-only): the table's rows by queue and status, as order-free digests
// of their ids (./ledger.ts IdDigest), against what the run's record says it enqueued, completed and still held.
import type pg from "pg";
import { agree, countWords } from "../../lib/words";
import type { WorkloadVerification } from "../runtime";
import { IdDigest, type QwRecord } from "./ledger";
import { rowsOf, settleClaims, settleRun } from "./doubts";

/** A workflow id as the library writes it (a UUIDv4's text); anything else in the table is foreign. */
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Checks the table against `record` (the whole run's, every part's absorbed), and says what the numbers do not. */
export async function verifyQueuedWorkflows(
  admin: pg.Client,
  s: string,
  names: readonly string[],
  record: QwRecord,
  profile: "2.17" | "current" = "current",
): Promise<{ verification: WorkloadVerification; notes: string[] }> {
  const heldInDoubt = await settleLeftovers(admin, s, record, profile);
  const r = await admin.query<{ queue_name: string | null; status: string | null; n: string; hi: string; lo: string; odd: string; restarted: string }>(
    `SELECT queue_name, status, count(*) AS n,
            coalesce(sum(('x' || substr(workflow_uuid, 25, 6))::bit(24)::int) FILTER (WHERE workflow_uuid ~ $1), 0) AS hi,
            coalesce(sum(('x' || substr(workflow_uuid, 31, 6))::bit(24)::int) FILTER (WHERE workflow_uuid ~ $1), 0) AS lo,
            count(*) FILTER (WHERE workflow_uuid !~ $1) AS odd,
            count(*) FILTER (WHERE recovery_attempts IS DISTINCT FROM 1) AS restarted
     FROM ${s}.workflow_status GROUP BY queue_name, status ORDER BY queue_name, status`,
    [UUID_RE.source],
  );
  const problems: string[] = [];
  const success = { count: 0, hi: 0, lo: 0 };
  const open = { count: 0, hi: 0, lo: 0 };
  const stillQueued = new Map<string, number>();
  let pendingRows = 0;
  let restarted = 0;
  for (const row of r.rows) {
    const n = Number(row.n);
    const odd = Number(row.odd);
    if (odd) {
      problems.push(`${countWords(odd, "row")} in workflow_status whose id is not a UUID this run generated (queue ${row.queue_name}, status ${row.status})`);
    }
    if (row.queue_name === null || !names.includes(row.queue_name)) {
      problems.push(`${countWords(n, "row")} on a queue this run never used: ${row.queue_name ?? "no queue"} (status ${row.status})`);
      continue;
    }
    const into = row.status === "SUCCESS" ? success : row.status === "ENQUEUED" || row.status === "PENDING" ? open : null;
    if (!into) {
      problems.push(`${countWords(n, "workflow")} on ${row.queue_name} with status ${row.status}: neither completed nor still queued`);
      continue;
    }
    into.count += n - odd;
    into.hi += Number(row.hi);
    into.lo += Number(row.lo);
    if (row.status === "SUCCESS") restarted += Number(row.restarted);
    if (row.status === "ENQUEUED") stillQueued.set(row.queue_name, (stillQueued.get(row.queue_name) ?? 0) + n);
    if (row.status === "PENDING") pendingRows += n;
  }
  const enqueued = record.enqueuedIds.count;
  const completed = record.completedIds.count;
  // What the runner still holds in flight is what must still be queued or claimed in the table.
  const inFlight = new IdDigest();
  for (const id of record.inFlight.keys()) inFlight.add(id);
  if (!record.completedIds.equals(success))
    problems.push(
      `the workers completed ${countWords(completed, "workflow")} but workflow_status holds ${success.count} SUCCESS row(s)${success.count === completed ? " with other ids" : ""}: completions lost, or rows changed`,
    );
  if (!inFlight.equals(open))
    problems.push(
      `${countWords(inFlight.count, "workflow")} ${agree(inFlight.count, "were", "was")} enqueued and not completed, but workflow_status holds ${open.count} ENQUEUED or PENDING row(s)${open.count === inFlight.count ? " with other ids" : ""}`,
    );
  if (restarted) problems.push(`${restarted} completed workflow(s) were started more than once (recovery_attempts is not 1)`);
  if (record.completedUnknown)
    problems.push(
      `the workers completed ${countWords(record.completedUnknown, "workflow")} that ${agree(record.completedUnknown, "were", "was")} not in flight: completed twice, or never enqueued by this run`,
    );
  if (record.completedNoRow)
    problems.push(`${record.completedNoRow} completion UPDATE(s) found no PENDING row: the workflow was completed twice or changed underneath`);
  const rows = success.count + open.count;
  const lost = Math.max(0, enqueued - rows);
  if (lost && !problems.length) problems.push(`${lost} enqueued workflow(s) are missing from workflow_status`);
  const held = record.heldAtStop.reduce((a, b) => a + b, 0) + heldInDoubt;
  if (pendingRows !== held)
    problems.push(
      `${countWords(pendingRows, "workflow")} ${agree(pendingRows, "are", "is")} PENDING (claimed, not completed) but the workers held ${held} claimed ones when they stopped`,
    );
  const queued = [...stillQueued.values()].reduce((a, b) => a + b, 0);
  const notes = reportNotes(names, record, stillQueued, held);
  const countsMatch = success.count === completed && open.count === inFlight.count && rows === enqueued;
  const duplicated = restarted + record.completedUnknown + record.completedNoRow;
  const verification: WorkloadVerification = {
    ok: problems.length === 0,
    checked: enqueued,
    problems,
    facts: [
      { name: "lost", value: lost, ok: lost === 0 },
      { name: "run more than once", value: duplicated, ok: duplicated === 0 },
      { name: "SUCCESS", value: success.count, ok: success.count === completed },
      { name: "completions committed", value: completed, ok: success.count === completed },
      { name: "rows in workflow_status", value: rows, ok: rows === enqueued },
      { name: "runner counts match the target's rows", value: countsMatch, ok: countsMatch },
    ],
    unreadAtEnd: queued + pendingRows,
  };
  return { verification, notes };
}

/**
 * What a run whose loops reconnect left in doubt when its loops stopped, settled from the table (./doubts.ts): an
 * enqueue stored or not, a claim committed or not, a claimed workflow completed or still PENDING. Returns how many
 * PENDING workflows they leave claimed, which the workers held.
 */
async function settleLeftovers(admin: pg.Client, s: string, record: QwRecord, profile: "2.17" | "current"): Promise<number> {
  const { doubts } = record;
  const runs = record.unsettledRuns.splice(0);
  const claims = record.unsettledClaims.splice(0);
  const rows = await rowsOf(admin, s, [...runs.map((r) => r[0]), ...claims.map((c) => c[0]), ...record.doubtEnqueues.keys()]);
  let held = 0;
  for (const [id, , doubt] of runs) {
    const how = settleRun(doubt, rows.get(id), profile, doubts);
    if (how === "completed") {
      if (!record.completed(id)) record.completedUnknown++;
    } else if (how !== "gone") held++;
  }
  for (const [id, queue, executorId] of claims) held += settleClaims([{ id, queue }], rows, executorId, doubts).length;
  for (const [id, queue] of record.doubtEnqueues) {
    // Stored: enqueued, and still queued or claimed (a completed one was settled when its worker completed it).
    if (rows.has(id)) {
      record.storedInDoubt(id, queue);
      record.inFlight.set(id, { t: 0, queue });
    } else doubts.enqueue[1]++;
  }
  record.doubtEnqueues.clear();
  return held;
}

/** What the summary says beyond the numbers: backlog per queue, contention, what was left at the end. */
function reportNotes(names: readonly string[], record: QwRecord, stillQueued: Map<string, number>, held: number): string[] {
  const out: string[] = [];
  const n = names.length;
  if (n > 1) {
    const peaks = record.peakBacklog;
    const maxQ = peaks.indexOf(Math.max(...peaks));
    const minQ = peaks.indexOf(Math.min(...peaks));
    out.push(
      `backlog per queue (sampled each second): peak ${peaks[maxQ].toLocaleString("en-US")} on ${names[maxQ]}, lowest peak ${peaks[minQ].toLocaleString("en-US")} on ${names[minQ]}, over ${n} queues`,
    );
  } else out.push(`backlog of ${names[0]} (sampled each second): peak ${record.peakBacklog[0].toLocaleString("en-US")}`);
  if (stillQueued.size)
    out.push(
      `still ENQUEUED when the workers stopped: ${[...stillQueued]
        .slice(0, 8)
        .map(([q, k]) => `${k.toLocaleString("en-US")} on ${q}`)
        .join(", ")}${stillQueued.size > 8 ? `, … (${stillQueued.size} queues)` : ""}`,
    );
  if (held) out.push(`${countWords(held, "workflow")} claimed (PENDING) but not yet started when the workers stopped`);
  if (record.contention)
    out.push(
      `${record.contention.toLocaleString("en-US")} dequeue poll(s) hit contention (serialization failure or lock not available) and doubled that queue's polling interval, as the library does`,
    );
  return out;
}
