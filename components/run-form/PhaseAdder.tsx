// Under the Phases field: a phase built from a kind, a start and a length and added to the line, for someone who
// does not know the KIND@START+LENGTH syntax yet (the line stays the one thing the form sends, checked as typed).
import { useState } from "react";
import { INSTANT_KINDS, PHASE_DOES, PHASE_KINDS, type PhaseKind } from "@/lib/phases/shape";
import type { FormState } from "./useFormState";

export function PhaseAdder({ form }: { form: FormState }) {
  const [kind, setKind] = useState<PhaseKind>("hold-xmin");
  const [start, setStart] = useState("10");
  const [length, setLength] = useState("20");
  // An instant kind (kill-backend) acts at its start and is written without a length: its length box is hidden.
  const instant = INSTANT_KINDS.includes(kind);
  const add = () => {
    const now = (form.values.phases ?? "").trim();
    const phase = instant ? `${kind}@${start.trim()}s` : `${kind}@${start.trim()}s+${length.trim()}s`;
    form.setField("phases", `${now ? `${now}, ` : ""}${phase}`);
    form.touch("phases");
  };
  return (
    <div className="row" style={{ gap: 6, flexWrap: "wrap", alignItems: "center" }} data-testid="phase-adder">
      <select aria-label="Phase kind" value={kind} title={PHASE_DOES[kind]} onChange={(e) => setKind(e.target.value as PhaseKind)}>
        {PHASE_KINDS.map((k) => (
          <option key={k} value={k} title={PHASE_DOES[k]}>
            {k}
          </option>
        ))}
      </select>
      <label className="row" style={{ gap: 4 }}>
        at
        <input aria-label="Phase start (s)" inputMode="numeric" size={4} value={start} onChange={(e) => setStart(e.target.value)} />s
      </label>
      {!instant && (
        <label className="row" style={{ gap: 4 }}>
          for
          <input aria-label="Phase length (s)" inputMode="numeric" size={4} value={length} onChange={(e) => setLength(e.target.value)} />s
        </label>
      )}
      <button type="button" className="btn small" onClick={add}>
        Add phase
      </button>
    </div>
  );
}
