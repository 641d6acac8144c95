// DBOS's durable workflows started directly (browser-safe): per workflow the start INSERT … ON CONFLICT and
// the completion UPDATE, each its own transaction, on the library's own workflow_status table, as
// benchmarks/dbos_start_workflow.py; steps add the replay-check read and the checkpoint write each.
import type { z } from "zod";
import { DBOS_WORKFLOWS_43K } from "../dbos/published";
import { connectionParts, connectionsField, openLoopPacing, openLoopKnob, rateField, timingFields, timingParts } from "../dbos/fields";
import { profileField } from "../dbos/schema";
import { paramsObject, plural, fieldTable } from "../fields";
import { defineWorkload } from "../types";

const FIELDS = fieldTable([
  rateField("workflows", "workflows started"),
  connectionsField,
  {
    name: "steps",
    label: "Steps",
    hint: "per workflow; each adds a replay-check read and a checkpoint write",
    control: "int",
    min: 0,
    max: 1000,
    default: 0,
    group: "load",
    cli: { flag: "steps", ours: true, help: "steps per workflow, each a read and a checkpoint write (default 0: a no-op workflow)" },
    compareLabel: "Steps per workflow",
  },
  profileField,
  ...timingFields,
]);

export const WorkflowsParams = paramsObject("workflows", FIELDS);
export type WorkflowsConfig = z.output<typeof WorkflowsParams>;

/** Write transactions per workflow: start, one checkpoint per step, completion. */
export const writesPerWorkflow = (steps: number) => 2 + steps;

export const workflows = defineWorkload({
  kind: "workflows",
  title: "workflows",
  purpose: "Durable workflows: a start INSERT and a completion UPDATE each, plus per-step checkpoints",
  description:
    "DBOS's durable workflows: a start INSERT and a completion UPDATE per workflow (plus a read and a write per step) on the library's workflow_status table.",
  params: WorkflowsParams,
  fields: FIELDS,
  defaultPresetId: "workflows-defaults",
  presets: [
    {
      id: "workflows-defaults",
      label: "workflows: the study's README example",
      description: "1,000 no-op workflows/s, 32 connections, the 2.17 schema, 30 s.",
      config: { kind: "workflows" },
    },
    {
      id: "workflows-43k",
      label: "workflows: 43K/s (published)",
      description: "The published rate, 43,000 no-op workflows/s, over 256 connections (the study does not say how many it used).",
      referenceId: DBOS_WORKFLOWS_43K.id,
      config: { kind: "workflows", rate: 43_000, connections: 256 },
    },
  ],
  describe: (c) => [
    `${c.rate.toLocaleString("en-US")} workflows/s`,
    plural(c.connections, "connection"),
    c.steps ? plural(c.steps, "step") : "no steps",
    `DBOS ${c.profile} schema`,
    ...timingParts(c),
  ],
  shortName: (c) => `workflows ${c.rate.toLocaleString("en-US")}/s${c.steps ? ` ${c.steps} steps` : ""}`,
  clients: (c) => c.connections,
  clientsFormula: "connections",
  clientMemory: (c) => [{ bytes: c.connections * 1024, words: `${plural(c.connections, "connection")} × one workflow's values`, fields: ["connections"] }],
  clientMemoryFormula: "connections × 1 KiB",
  rateKnob: openLoopKnob(),
  parts: connectionParts(),
  reconnects:
    "its connections reconnect; a start, a step checkpoint or a completion whose commit reply was lost is settled from workflow_status and operation_outputs, and its workflow resumes as DBOS's recovery resumes one",
  pacing: (c) => openLoopPacing(c, "workflow", "workflow"),
  verifiedUnit: "workflow",
  metrics: {
    operations: [
      {
        name: "workflow",
        label: "workflow",
        unit: "workflow",
        rate: true,
        latency: true,
        errors: true,
        latencySample: "per workflow, start sent → completion committed (runner clock)",
        chart: { title: "Workflow latency", hint: "start sent → completion committed" },
      },
      {
        name: "workflowScheduled",
        label: "workflow from schedule",
        unit: "workflow",
        rate: false,
        latency: true,
        errors: false,
        latencySample: "per workflow, scheduled start → completion committed",
      },
      {
        name: "write",
        label: "write",
        unit: "txn",
        rate: true,
        latency: true,
        errors: true,
        latencySample: "per write transaction (start, checkpoint, completion)",
      },
      {
        name: "stepRead",
        label: "step read",
        unit: "txn",
        rate: true,
        latency: true,
        errors: true,
        latencySample: "per replay-check read transaction",
      },
    ],
  },
  published: [DBOS_WORKFLOWS_43K],
});
