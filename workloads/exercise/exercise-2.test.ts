// The conformance suite in this process (./exercise.ts), share 2 of 3 of every registered workload and fixture.
import { exerciseShare } from "./exercise";

exerciseShare(2, 3, "one process");
