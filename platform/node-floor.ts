// Imported first by every entry point (npm start, the runner, the CLI, npm test): stops at once, with a message
// saying what to do, when the Node running it is below the product's floor (platform/node-version.ts).
import { requireNodeFloor } from "./node-version";

requireNodeFloor();
