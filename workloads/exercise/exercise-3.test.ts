// The conformance suite in this process (./exercise.ts), share 3 of 3 of every registered workload and fixture.
import { exerciseShare } from "./exercise";

exerciseShare(3, 3, "one process");
