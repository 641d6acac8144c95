// The readers' back-off modes after an empty poll, one list for the form's field (workloads/fields.ts, with their
// labels) and the engine core's Backoff that sleeps them (runner/core/timing.ts). Browser-safe, imports nothing.

/** "reference-effective": what the reference's sleeps really take; "nominal": what its code asks for. */
export const BACKOFF_MODES = ["reference-effective", "nominal"] as const;
export type BackoffMode = (typeof BACKOFF_MODES)[number];
