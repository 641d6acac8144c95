// Why a published scenario may not reproduce here (lib/references/references.ts fitWarnings), as one list: shown on
// /references/[id] and on the New run form after "Run this here", so both say the same thing.
import type { FitWarning } from "@/lib/references/references";
import "./compare.css";

export function FitWarningList({ heading, warnings }: { heading: string; warnings: FitWarning[] }) {
  return (
    <div className={`alert ${warnings.some((w) => w.severity === "blocker") ? "bad" : "warn"}`}>
      <strong>{heading}</strong>
      <ul className="fit-warnings">
        {warnings.map((w, i) => (
          <li key={i} data-severity={w.severity} data-field={w.field}>
            {w.severity === "blocker" ? <strong>Will not fit: </strong> : null}
            {w.text}
          </li>
        ))}
      </ul>
    </div>
  );
}
