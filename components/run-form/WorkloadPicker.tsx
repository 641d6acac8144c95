"use client";
// The New run form's workload picker: one radio per workload, grouped by the study it reproduces, each with its
// one-line purpose beside its name. A list that wraps, so it grows with workloads instead of widening the page
// (a row of tabs did: ten were 905 px wide). Native radios sharing one name: arrow keys move between them.
import { workloadPickerGroups } from "./fields";

export function WorkloadPicker({ kind, onPick }: { kind: string; onPick: (kind: string) => void }) {
  return (
    <div className="workload-picker" role="radiogroup" aria-label="Workload">
      {workloadPickerGroups().map((g) => (
        <div key={g.study} className="wl-study" role="group" aria-labelledby={`wl-study-${g.study}`}>
          <div className="wl-study-name" id={`wl-study-${g.study}`}>
            {g.label} <span className="wl-topic">{g.topic}</span>
          </div>
          {g.workloads.map((d) => (
            <label key={d.kind} className={`wl-option${kind === d.kind ? " on" : ""}`}>
              <input
                type="radio"
                name="kind"
                value={d.kind}
                checked={kind === d.kind}
                onChange={() => onPick(d.kind)}
                aria-labelledby={`wl-${d.kind}`}
                aria-describedby={`wl-${d.kind}-purpose`}
              />
              <span className="wl-text">
                <span className="wl-title" id={`wl-${d.kind}`}>
                  {d.title}
                </span>
                <span className="wl-purpose" id={`wl-${d.kind}-purpose`}>
                  {d.purpose}
                </span>
              </span>
            </label>
          ))}
        </div>
      ))}
    </div>
  );
}
