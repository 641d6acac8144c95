// Notify, Yong's pub/sub scenario (browser-safe): publishers INSERT into a messages table; one subscriber
// polls each channel every 100 ms (baseline) or LISTENs to the trigger's pg_notify (modded). Its field table,
// presets and the article's published figures; the SQL and the subscribers are in sql.ts and subscribers.ts,
// the loops and verification in runner.ts (server-only).
import type { z } from "zod";
import { plural, fieldTable } from "../fields";
import { defineWorkload, type PublishedResult } from "../types";
import {
  loadField,
  loadModelWords,
  loadParts,
  poolField,
  rateField,
  requestOperations,
  thinkField,
  timingFields,
  type Variant,
  variantField,
  vusField,
  YONG,
  type YongCommon,
  yongParams,
  yongPacing,
  yongParts,
  yongRateKnob,
} from "../yong/fields";

/** Think time reproducing the modded 200-VU run's 1,131 req/s: 200 / 1,131 = 177 ms per iteration, less its 2.13 ms average. */
export const NOTIFY_THINK_MS = 175;
export const DEFAULT_CHANNELS = 10;
/** The reference's proposal: about 200 bytes of JSON per message. */
export const DEFAULT_MESSAGE_BYTES = 200;
/** NOTIFY refuses payloads of 8,000 bytes or more; jsonb's text form adds a few spaces to ours. */
export const MAX_MESSAGE_BYTES = 7900;

const FIELDS = fieldTable([
  variantField("a subscriber polls each channel every 100 ms", "a subscriber LISTENs; an AFTER INSERT trigger calls pg_notify"),
  loadField,
  vusField({ default: 200, what: "publisher VUs" }),
  thinkField(NOTIFY_THINK_MS),
  rateField,
  poolField,
  {
    name: "channels",
    label: "Channels",
    unit: "channels",
    hint: "each publish goes to one, drawn uniformly; the subscriber polls or listens to all",
    control: "int",
    min: 1,
    max: 100,
    default: DEFAULT_CHANNELS,
    group: "batches",
    cli: { flag: "channels", ours: true, help: `channels ch_0… (default ${DEFAULT_CHANNELS})` },
    compareLabel: "Channels",
  },
  {
    name: "messageBytes",
    label: "Message size",
    unit: "bytes",
    hint: `JSON text per message (NOTIFY's limit is 8,000 bytes)`,
    control: "int",
    min: 64,
    max: MAX_MESSAGE_BYTES,
    default: DEFAULT_MESSAGE_BYTES,
    group: "batches",
    cli: { flag: "message-bytes", ours: true, help: `bytes of JSON per message, 64-${MAX_MESSAGE_BYTES} (default ${DEFAULT_MESSAGE_BYTES})` },
    compareLabel: "Message (bytes)",
  },
  ...timingFields,
]);

export const NotifyParams = yongParams("notify", FIELDS, ["vus"]);
export type NotifyConfig = z.output<typeof NotifyParams>;

const caveats = [
  YONG.caveats.http,
  {
    by: "found" as const,
    text: "The article does not say what its baseline polls, how often, or what its k6 requests did beyond publishing: ours polls each of 10 channels every 100 ms (a fixed 100 polls/s of background load) and its requests only publish.",
  },
  {
    by: "found" as const,
    text: "Delivery latency (publish → received), what pub/sub users care about, was not measured in the article; ours records it. Polling adds up to 100 ms by design.",
  },
  {
    by: "found" as const,
    text: "NOTIFY takes a global lock at commit, which can become the bottleneck at high insert rates (not visible at about 1,100 publishes/s).",
  },
  { by: "author" as const, text: "A NOTIFY payload is limited to 8,000 bytes, and LISTEN needs a dedicated connection (not PgBouncer's transaction mode)." },
  {
    by: "author" as const,
    text: '"More work per INSERT (INSERT + NOTIFY), but fewer round trips and better connection reuse patterns offset the overhead" (the author\'s explanation of the 20 % p95 gain).',
  },
  YONG.caveats.thinkTime,
];

function published(id: string, variant: Variant, f: { p50: number; p95: number; avg: number; rps: number }): PublishedResult {
  const config = { kind: "notify", variant, load: "vus", vus: 200, thinkMs: NOTIFY_THINK_MS, durationSeconds: 60, warmupSeconds: 0 };
  return {
    id,
    study: "yong",
    title: `Pub/sub, 200 VUs, ${variant} (${variant === "baseline" ? "polling" : "LISTEN/NOTIFY"})`,
    source: YONG.source("pub/sub table"),
    config,
    rates: { publish: f.rps, total: f.rps },
    latencyMs: { total: { p50: f.p50, p95: f.p95, avg: f.avg } },
    measuredThrough: YONG.measuredThrough,
    loadModel: loadModelWords(config as unknown as YongCommon, 200),
    server: YONG.server,
    derived: [
      `ours: 200 VUs / ${f.rps.toLocaleString("en-US")} req/s = ${((200 / f.rps) * 1000).toFixed(0)} ms per iteration, so each iteration holds think time (the preset's ${NOTIFY_THINK_MS} ms reproduces the modded rate)`,
      'ours: p95 6.04 → 4.80 ms is −20.5 % (the article\'s "20 % improvement at p95"); p50 −17.1 %, average −25.0 %',
    ],
    caveats,
  };
}

export const NOTIFY_PUBLISHED: PublishedResult[] = [
  published("yong-notify-200vu-baseline", "baseline", { p50: 1.99, p95: 6.04, avg: 2.84, rps: 1116 }),
  published("yong-notify-200vu-modded", "modded", { p50: 1.65, p95: 4.8, avg: 2.13, rps: 1131 }),
];

export const notify = defineWorkload({
  kind: "notify",
  title: "notify",
  purpose: "Pub/sub: a subscriber polls the messages table or LISTENs to a trigger's NOTIFY",
  description:
    "Yong's pub/sub: publishes INSERT into a messages table; a subscriber polls every 100 ms (baseline) or LISTENs to a trigger's pg_notify (modded).",
  params: NotifyParams,
  fields: FIELDS,
  defaultPresetId: "notify-200vu-modded",
  presets: NOTIFY_PUBLISHED.map((p) => ({
    id: p.id.replace(/^yong-/, ""),
    label: `${p.title} (published)`,
    description: `${p.loadModel}, 60 s, 10 channels, 200-byte messages.`,
    referenceId: p.id,
    config: p.config as never,
  })),
  describe: (c) => [
    ...loadParts(c, plural(c.vus, "publisher VU")),
    plural(c.channels, "channel"),
    ...(c.messageBytes === DEFAULT_MESSAGE_BYTES ? [] : [`${c.messageBytes} B messages`]),
  ],
  shortName: (c) => `notify ${c.variant}`,
  // The pool publishes; one more connection subscribes (it polls, or it LISTENs and so cannot be pooled).
  clients: (c) => c.pool + 1,
  clientsFormula: "pool + 1 subscriber",
  clientMemory: (c) => [
    {
      bytes: c.pool * c.messageBytes * 4,
      words: `pool ${c.pool} × ${c.messageBytes} B message × 4 (its JSON text, the statement sent, the row or notification received)`,
      fields: ["messageBytes", "pool"],
    },
    {
      bytes: 100 * c.messageBytes * 3,
      words: `a poll's page of 100 rows × ${c.messageBytes} B × 3 (as received, as text, parsed)`,
      fields: ["messageBytes"],
    },
  ],
  clientMemoryFormula: "pool × message × 4 + 100 rows × message × 3 (one bit a message for delivery bookkeeping)",
  rateKnob: yongRateKnob(),
  parts: yongParts((c: NotifyConfig) => c.vus, "vus"),
  reconnects:
    "its pool's connections and its subscriber reconnect; a publish whose reply was lost is settled from the table, and a listener that lost its connection listens again: what was notified meanwhile is counted as missed while it reconnected (NOTIFY is not durable)",
  pacing: (c) => yongPacing(c, c.vus),
  verifiedUnit: "message",
  metrics: {
    operations: [
      ...requestOperations([{ name: "publish", label: "publish" }]),
      {
        name: "poll",
        label: "poll",
        unit: "poll",
        rate: true,
        latency: true,
        errors: true,
        latencySample: "per poll of one channel (baseline only)",
      },
    ],
    delivery: {
      name: "delivery",
      label: "delivery",
      latencySample: "per notification, from just before its INSERT was sent to the subscriber having it (the runner's clock)",
      chart: { title: "Delivery latency", hint: "published → received by the subscriber" },
    },
  },
  published: NOTIFY_PUBLISHED,
});
