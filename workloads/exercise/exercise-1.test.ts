// The conformance suite in this process (./exercise.ts), share 1 of 3 of every registered workload and fixture.
import { exerciseShare } from "./exercise";

exerciseShare(1, 3, "one process");
