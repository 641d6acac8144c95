"use client";
import { useEffect, useState } from "react";
import { fmtDate } from "@/lib/runs/format";

/** A date in the viewer's time zone. The server renders UTC (marked so); the browser swaps in local time. */
export function LocalTime({ iso }: { iso: string }) {
  const [local, setLocal] = useState<string | null>(null);
  useEffect(() => setLocal(fmtDate(iso)), [iso]);
  return (
    <time dateTime={iso} title={iso}>
      {local ?? `${fmtDate(iso, "UTC")} UTC`}
    </time>
  );
}
