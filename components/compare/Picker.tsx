"use client";
// Adds runs, imported results and references to the comparison.
import { useState } from "react";
import type { Choice } from "@/lib/compare/load";

const GROUPS: { kind: Choice["kind"]; label: string }[] = [
  { kind: "run", label: "Stored runs" },
  { kind: "import", label: "Imported results" },
  { kind: "reference", label: "Published references" },
];

export function Picker({ choices, selected, onAdd }: { choices: Choice[]; selected: string[]; onAdd: (key: string) => void }) {
  const [value, setValue] = useState("");
  const free = choices.filter((c) => !selected.includes(c.key));
  return (
    <form
      className="row picker"
      onSubmit={(e) => {
        e.preventDefault();
        if (value) onAdd(value);
        setValue("");
      }}
    >
      <label className="sr-only" htmlFor="picker-select">
        Add to the comparison
      </label>
      <select id="picker-select" value={value} onChange={(e) => setValue(e.target.value)} data-testid="picker-select">
        <option value="">Add a run, an import or a reference…</option>
        {GROUPS.map((g) => {
          const opts = free.filter((c) => c.kind === g.kind);
          if (!opts.length) return null;
          return (
            <optgroup key={g.kind} label={g.label}>
              {opts.map((c) => (
                <option key={c.key} value={c.key} disabled={c.disabled !== null}>
                  {c.label} — {c.detail}
                  {c.disabled ? ` (${c.disabled})` : ""}
                </option>
              ))}
            </optgroup>
          );
        })}
      </select>
      <button type="submit" className="btn" disabled={!value} data-testid="picker-add">
        Add
      </button>
    </form>
  );
}
