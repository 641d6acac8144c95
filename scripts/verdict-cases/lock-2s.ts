// A throttled queue run whose table another session locks for 2 s, 4 s into the measured window: a stall.
import { lockCase } from "./_lock";

export default lockCase("lock-2s", 2000);
