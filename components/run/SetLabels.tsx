"use client";
// The name, tags and notes of a set's page (an A/B, a ladder, a ceiling search): its name shown above its kind, and
// the editor of components/run/LabelsEditor.tsx saving to the set's PATCH route.
import { useState } from "react";
import type { Labels } from "@/lib/runs/labels";
import { LabelsEditor } from "./LabelsEditor";

export function SetLabels({ initial, endpoint, what }: { initial: Labels; endpoint: string; what: string }) {
  const [labels, setLabels] = useState(initial);
  return (
    <div>
      {labels.name && (
        <p className="set-name run-name" data-testid="set-name">
          {labels.name}
        </p>
      )}
      <LabelsEditor labels={labels} endpoint={endpoint} what={what} onSaved={setLabels} />
    </div>
  );
}
