// The databases the product makes in its embedded clusters (platform/embedded.ts), in a module of their own so that
// the web app can name them (lib/targets/replicated.ts) without loading the server-starting code.
export const CONTROL_DB = "pgbb_control";
export const TARGET_DB = "pgbb_target";
