// The schedule's watch: the notes a paced run gets when its writers fall behind schedule or catch up over the
// limit, and when one writer falls behind its own share while the others keep theirs. Pacing's, beside the
// pacers (./pacing.ts) and the throttle's per-writer lag (./timing.ts Throttle.writerLagMs) it reads; the
// recorder (./stats.ts) only counts.

/**
 * Writers behind schedule by more than this (seconds) get a note. On schedule, a write ends at most one write
 * latency (milliseconds) after its scheduled time; half a second behind is a stall or a throttle the writers
 * cannot reach, never noise.
 */
export const BEHIND_SCHEDULE_NOTE_SECONDS = 0.5;
/**
 * Writing above the throttle gets a note when a second (or the whole window) wrote more than this fraction above
 * the schedule, beyond what was in flight. A pause of a few milliseconds (a GC, a busy event loop) is caught up
 * by a handful of messages, well under 5%; a stall long enough to matter is caught up by more.
 */
export const OVER_LIMIT_NOTE_FRACTION = 0.05;
/**
 * The measured window's write rate under this share of the throttle gets a note, when the shortfall is also more
 * than BEHIND_SCHEDULE_NOTE_SECONDS of the schedule (plus the batches in flight): as with falling behind, less than
 * half a second's worth is noise of a short window (a 2 s window ending 0.1 s behind is 5% short), never a finding.
 */
export const UNDER_LIMIT_NOTE_SHARE = 0.95;
/** Intervals shorter than this (a phase's last partial one) are too short to give a rate worth quoting. */
const MIN_RATE_INTERVAL_SECONDS = 0.5;

const fmtSec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const fmtMsgs = (n: number) => Math.round(n).toLocaleString("en-US");

/**
 * Watches the measured window of a throttled run and says, in the run's notes, when the writers fell behind
 * schedule or caught up over the limit. "Behind schedule" is how long after its scheduled time a write ended
 * (what the writeScheduled latency measures) or, for a write still running, how long it is overdue.
 *
 * Catching up: the schedule never lets a write start before it is due, so in an interval of `sec` seconds the
 * writers can finish at most limit × sec messages plus those already started at its beginning (one batch per
 * writer) and one batch of rounding, `slackMessages`. More than that is catch-up of a backlog; it is noted when
 * it is more than OVER_LIMIT_NOTE_FRACTION of the schedule.
 */
export class ScheduleWatch {
  private maxBehindMs = 0;
  private endBehindMs = 0;
  private peak: { rate: number; sec: number } | null = null;
  private overLimit = false;
  /** Per writer: the furthest it fell behind its own share of the schedule (Throttle.writerLagMs). */
  private writerLagMaxMs: number[] = [];

  constructor(
    readonly limitPerSec: number,
    readonly slackMessages: number,
    /** The workload's own words: what a paced item is ("workflow"), its operation in plural ("enqueues"), who does it ("enqueuers"). */
    readonly words: { unit: string; items: string; doers: string } = { unit: "msg", items: "writes", doers: "writers" },
  ) {}

  /**
   * One measured interval: how far behind the writers were at its end (ms), the messages written in it, and how
   * far each writer was behind its own share of the schedule at its end (ms, by writer index).
   */
  interval(behindMs: number, written: number, sec: number, writerLagsMs: readonly number[] = []) {
    this.maxBehindMs = Math.max(this.maxBehindMs, behindMs);
    writerLagsMs.forEach((l, w) => {
      this.writerLagMaxMs[w] = Math.max(this.writerLagMaxMs[w] ?? 0, l);
    });
    this.endBehindMs = behindMs; // the last call is the window's end
    if (sec < MIN_RATE_INTERVAL_SECONDS) return;
    const rate = written / sec;
    if (!this.peak || rate > this.peak.rate) this.peak = { rate, sec };
    if (this.aboveLimit(written, sec)) this.overLimit = true;
  }

  private aboveLimit(written: number, sec: number) {
    return written > this.limitPerSec * sec * (1 + OVER_LIMIT_NOTE_FRACTION) + this.slackMessages;
  }

  /**
   * The notes for the measured window. `latestWriteMs`: the largest writeScheduled latency of the window (a
   * write that ended late between two intervals); `written`/`seconds`: the window's writes and real length.
   */
  notes(latestWriteMs: number, written: number, seconds: number): string[] {
    const limit = this.limitPerSec;
    const { unit, items, doers } = this.words;
    const doer = doers.replace(/s$/, "");
    const maxBehind = Math.max(this.maxBehindMs, latestWriteMs);
    const avg = seconds > 0 ? written / seconds : 0;
    const share = `${Math.round((100 * avg) / limit)}% of it`;
    const threshold = BEHIND_SCHEDULE_NOTE_SECONDS * 1000;
    const out: string[] = [];
    const shortfall = limit * seconds - written;
    const short =
      seconds >= MIN_RATE_INTERVAL_SECONDS &&
      shortfall > (1 - UNDER_LIMIT_NOTE_SHARE) * limit * seconds &&
      shortfall > BEHIND_SCHEDULE_NOTE_SECONDS * limit + this.slackMessages;
    if (this.endBehindMs > threshold)
      out.push(
        `${items} were ${fmtSec(this.endBehindMs)} behind schedule when the measured window ended, up to ${fmtSec(maxBehind)} during it (${doers} did not keep up with the ${fmtMsgs(limit)} ${unit}/s throttle: ${fmtMsgs(avg)} ${unit}/s achieved, ${share})`,
      );
    else {
      if (short)
        // Not behind, yet short of the throttle: writes that failed (they are not retried) or ended early.
        out.push(
          `${items} reached ${fmtMsgs(avg)} ${unit}/s over the measured window, ${Math.round((100 * avg) / limit)}% of the ${fmtMsgs(limit)} ${unit}/s throttle (under ${Math.round(UNDER_LIMIT_NOTE_SHARE * 100)}% of it, and not for being behind schedule at the window's end: failed writes are not retried, and count against it)`,
        );
      if (maxBehind > threshold)
        out.push(
          `${items} fell up to ${fmtSec(maxBehind)} behind schedule during the measured window and caught up by its end (${doers} stalled or slowed, then went faster than the throttle)`,
        );
    }
    if (this.overLimit || this.aboveLimit(written, seconds)) {
      const peak = this.peak ? `peak ${fmtMsgs(this.peak.rate)} ${unit}/s over ${this.peak.sec.toFixed(1)} s, ` : "";
      out.push(
        `${items} ran above the ${fmtMsgs(limit)} ${unit}/s throttle: ${peak}${fmtMsgs(avg)} ${unit}/s over the measured window (${doers} caught up after falling up to ${fmtSec(maxBehind)} behind schedule)`,
      );
    }
    // Some writers behind their own share while the rest kept theirs (and took their turns): part of the load
    // stalled, which the global schedule and rate hide. When every writer fell behind, the notes above say it.
    const lags = this.writerLagMaxMs;
    const behind = lags.filter((l) => l > threshold).length;
    if (behind > 0 && behind < lags.length) {
      const worst = lags.indexOf(Math.max(...lags));
      const who = behind === 1 ? `${doer} ${worst}` : `${behind} of ${lags.length} ${doers} (${doer} ${worst} the most)`;
      out.push(
        `${who} fell up to ${fmtSec(lags[worst])} behind ${behind === 1 ? "its" : "their"} own share of the schedule (${fmtMsgs(limit / lags.length)} ${unit}/s each) while the other ${doers} kept theirs and took the turns it missed, so the overall rate hides it: a stall of part of the load (a lock, a slow connection)`,
      );
    }
    return out;
  }
}
