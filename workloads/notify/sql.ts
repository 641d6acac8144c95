// The notify workload's SQL (server-only). The article gives only the trigger; the messages table, the publish
// statement and the polling query are this project's (docs/workloads-yong.md), the polling query made correct:
//
// Polling `WHERE id > last` loses messages: a BIGSERIAL id is taken before its transaction commits, so a
// poll can see id 106 committed while id 105 is still in flight, move past 105 and never read it. Each row
// therefore records its inserting transaction (`tx`, pg_current_xact_id()), and a poll reads only rows whose
// transaction is older than every transaction still running (tx < the snapshot's xmin), in (tx, id) order:
// such rows can no longer change, so every message is read exactly once, a fixed 100 ms poll after another.
// Both variants have the same table (the column costs both the same); modded adds the article's trigger.
export type NotifyVariant = "baseline" | "modded";

/** A NOTIFY payload must be shorter than this many bytes (Postgres' limit). */
export const NOTIFY_PAYLOAD_LIMIT = 8000;
/** Rows a poll reads at most; a full page is followed by another poll at once. */
export const POLL_LIMIT = 100;

export const channelName = (i: number) => `ch_${i}`;

export function notifySql(s: string, variant: NotifyVariant) {
  const t = `${s}.messages`;
  return {
    table: t,
    setup: [
      `CREATE TABLE ${t} (
         id BIGSERIAL PRIMARY KEY,
         channel TEXT NOT NULL,
         payload JSONB NOT NULL,
         created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
         tx xid8 NOT NULL DEFAULT pg_current_xact_id()
       )`,
      `CREATE INDEX idx_messages_channel_tx_id ON ${t} (channel, tx, id)`,
      ...(variant === "modded"
        ? [
            `CREATE OR REPLACE FUNCTION ${s}.notify_message() RETURNS trigger AS $$
             BEGIN
               PERFORM pg_notify(NEW.channel, NEW.payload::text);
               RETURN NEW;
             END;
             $$ LANGUAGE plpgsql`,
            `CREATE TRIGGER trg_notify AFTER INSERT ON ${t} FOR EACH ROW EXECUTE FUNCTION ${s}.notify_message()`,
          ]
        : []),
    ],
    publish: `INSERT INTO ${t} (channel, payload) VALUES ($1, $2::jsonb) RETURNING id`,
    poll: `SELECT id, tx, payload FROM ${t}
           WHERE channel = $1 AND (tx, id) > ($2::xid8, $3::bigint) AND tx < pg_snapshot_xmin(pg_current_snapshot())
           ORDER BY tx, id LIMIT ${POLL_LIMIT}`,
    /** Verification: per publisher, the messages the table holds and the sum of their sequence numbers. */
    perPublisher: `SELECT (payload->>'p')::int AS p, count(*)::bigint AS n, count(DISTINCT (payload->>'s')::bigint)::bigint AS distinct_n,
                          coalesce(sum((payload->>'s')::bigint), 0)::bigint AS seq_sum
                   FROM ${t} GROUP BY 1`,
    queueUsage: "SELECT pg_notification_queue_usage() AS usage",
  };
}

/**
 * The message a publisher sends: its index, its sequence number (1, 2, 3, … counting successful publishes),
 * the runner's clock when it was sent (for delivery latency) and padding up to `bytes` of JSON text.
 */
export function messagePayload(p: number, seq: number, sentAt: number, bytes: number): string {
  const head = `{"p":${p},"s":${seq},"t":${sentAt.toFixed(3)},"pad":"`;
  return `${head}${"x".repeat(Math.max(0, bytes - head.length - 2))}"}`;
}

export interface ReceivedMessage {
  p: number;
  s: number;
  t: number;
}

/** Reads a payload back (JSON text, from a row or a notification); null when it is not one of ours. */
export function parseMessage(text: string): ReceivedMessage | null {
  try {
    const m = JSON.parse(text) as Partial<ReceivedMessage>;
    return Number.isInteger(m.p) && Number.isInteger(m.s) && typeof m.t === "number" ? (m as ReceivedMessage) : null;
  } catch {
    return null;
  }
}
