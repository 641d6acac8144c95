import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DeleteImport } from "@/components/compare/DeleteImport";
import "@/components/compare/compare.css";
import { fmtNum } from "@/lib/compare/format";
import { IMPORT_CONFIG_FIELDS, ImportedSummary } from "@/lib/imports/summary";
import { workloadDefinition } from "@/lib/workloads/config";
import { getImport } from "@/lib/imports/store";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Imported result · pg-broker-bench" };

type Props = { params: Promise<{ id: string }> };

export default async function ImportPage({ params }: Props) {
  const { id } = await params;
  const imp = await getImport(id);
  if (!imp) notFound();
  const parsed = ImportedSummary.safeParse(imp.parsed);
  // The fields the tool's command line sets for this workload (its field table's importFlag).
  const importedFields = new Set<string>(
    parsed.success ? (workloadDefinition(parsed.data.workload)?.fields ?? []).filter((f) => f.importFlag).map((f) => f.name) : [],
  );
  return (
    <div className="stack">
      <section className="panel">
        <div className="spread">
          <h1 style={{ margin: 0 }}>{imp.label}</h1>
          <span className="badge warn">imported</span>
        </div>
        <p className="muted small">
          {imp.id} · {imp.workload} · imported {imp.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC · output of the reference tool, with its
          semantics
        </p>
        <div className="row">
          <Link className="btn primary" href={`/compare?ids=${imp.id}`}>
            Compare
          </Link>
          <a className="btn" href={`/api/imports/${imp.id}`}>
            JSON
          </a>
          <DeleteImport id={imp.id} />
        </div>
      </section>
      {parsed.success ? (
        <div className="grid grid-2">
          <section className="panel">
            <h2>Numbers as printed</h2>
            <table className="data compact">
              <tbody>
                <tr>
                  <th scope="row">Write</th>
                  <td className="num">
                    {fmtNum(parsed.data.throughput.writeMsgPerSec)} msg/s · {fmtNum(parsed.data.totals.writes, 0)} written,{" "}
                    {fmtNum(parsed.data.totals.writeErrors, 0)} errors
                  </td>
                </tr>
                <tr>
                  <th scope="row">Read</th>
                  <td className="num">
                    {fmtNum(parsed.data.throughput.readMsgPerSec)} msg/s · {fmtNum(parsed.data.totals.reads, 0)} read,{" "}
                    {fmtNum(parsed.data.totals.readErrors, 0)} errors
                  </td>
                </tr>
                {(["write", "read", "e2e"] as const).map((m) => {
                  const l = parsed.data.latencyMs[m];
                  return (
                    <tr key={m}>
                      <th scope="row">{m} p50 / p95 / p99</th>
                      <td className="num mono">{l ? `${l.p50.raw} / ${l.p95.raw} / ${l.p99.raw}` : "—"}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
            <ul className="plain small" style={{ marginTop: 8 }}>
              {parsed.data.notes.map((n, i) => (
                <li key={i}>{n}</li>
              ))}
            </ul>
          </section>
          <section className="panel">
            <h2>Config</h2>
            <dl className="ref-facts">
              {IMPORT_CONFIG_FIELDS.filter((k) => importedFields.has(k)).map((k) => (
                <Row key={k} k={k} v={parsed.data.config[k]} src={parsed.data.configSources[k]} />
              ))}
            </dl>
            {parsed.data.command && <pre className="cmd">{parsed.data.command}</pre>}
          </section>
        </div>
      ) : (
        <div className="alert bad">The stored import cannot be read by this version: {parsed.error.issues[0]?.message}</div>
      )}
      <section className="panel">
        <h2>Text as pasted</h2>
        <pre className="raw">{imp.rawText}</pre>
      </section>
    </div>
  );
}

function Row({ k, v, src }: { k: string; v: number | boolean | undefined; src?: string }) {
  return (
    <>
      <dt>{k}</dt>
      <dd>
        {v === undefined ? <span className="muted">unknown</span> : String(v)} {src && src !== "output" ? <span className="hint">({src})</span> : null}
      </dd>
    </>
  );
}
