// The run page's replication card as rendered, from readings of a primary whose synchronous standby stopped mid-run
// (lib/telemetry/testing.ts): its title names the standbys' lag, its hint the setting, and under the chart the events
// in words on the run's timeline; a run whose target had no standby shows no card.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { XAxis } from "recharts";
import { replicatedReading, standbyReading } from "@/lib/telemetry/testing";
import { ReplicationCard } from "./ReplicationCharts";

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");
/** Readings at t = 2, 3, … s of the run's timeline (the warm-up's 1 s before). */
const frameOf = (points: ReturnType<typeof replicatedReading>[]) => ({
  points: points.map((telemetry, i) => ({ t: i + 2, telemetry })),
  rows: [],
  xAxis: createElement(XAxis, { dataKey: "t", type: "number" }),
  shading: () => null,
});

test("the standbys' lag card: its setting, and the synchronous standby stopping and the other taking over, timed on the run's timeline", () => {
  const both = [standbyReading("pg2", "sync"), standbyReading("pg3", "potential")];
  const readings = [0, 1, 2].map((i) => replicatedReading(i, both));
  readings.push(...[3, 4].map((i) => replicatedReading(i, [standbyReading("pg3", "sync")])));
  const html = text(renderToStaticMarkup(createElement(ReplicationCard, { frame: frameOf(readings), synchronousCommit: "on" })));
  assert.match(
    html,
    /Replication lag per standby bytes of WAL behind the primary: replay solid, flush dashed; synchronous_standby_names 'FIRST 1 \(pg2, pg3\)', synchronous_commit on/,
  );
  assert.match(html, /pg2 stopped streaming at 5 s; it was the synchronous standby/);
  assert.match(html, /pg3 became the synchronous standby at 5 s \(was a potential synchronous standby\)/);
});

test("no standby, no card", () => {
  const html = renderToStaticMarkup(createElement(ReplicationCard, { frame: frameOf([0, 1, 2].map((i) => replicatedReading(i, undefined))) }));
  assert.equal(html, "");
});
