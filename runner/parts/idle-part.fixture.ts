// Tests only (runner/parts/parts-runs.test.ts): a part process that never becomes ready. It hears the coordinator
// and says nothing, as a part stuck connecting would; it exits when the coordinator's channel closes.
process.on("message", () => undefined);
process.on("disconnect", () => process.exit(0));
