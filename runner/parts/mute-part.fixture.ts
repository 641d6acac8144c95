// Tests only (runner/parts/parts-failures.test.ts): a part process that says it is ready, then answers nothing
// (no pong, no sample), as a part whose event loop is stuck would; it exits when the coordinator's channel closes.
import os from "node:os";
import { PRODUCT_VERSION } from "../../lib/env";
import { productCommit } from "../run-summary";

process.on("message", (m: { type?: string }) => {
  if (m.type === "run")
    process.send?.({
      type: "ready",
      pid: process.pid,
      host: os.hostname(),
      backendPids: [],
      product: { version: PRODUCT_VERSION, commit: productCommit() },
    });
});
process.on("disconnect", () => process.exit(0));
