// The conformance suite's runs over 2 processes (./exercise.ts), share 1 of 2 of every registered workload and fixture.
import { exerciseShare } from "./exercise";

exerciseShare(1, 2, "two processes");
