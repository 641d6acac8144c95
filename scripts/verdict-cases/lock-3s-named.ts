// A 3 s ACCESS EXCLUSIVE lock mid-run by a session named "pgbb-verdict-locker": the stall names the lock behind it
// (relation, mode, the holder's pid and query), read during the stall.
import { lockCase } from "./_lock";

export default lockCase("lock-3s-named", 3000, {
  applicationName: "pgbb-verdict-locker",
  mentions: [/behind it: AccessExclusiveLock on \S+\.queue held by pid \d+ \("pgbb-verdict-locker"\): "BEGIN; LOCK TABLE/],
});
