// The exported report's stylesheet: the rules of app/globals.css the report's markup uses (the same classes, so the
// tables and panels read as on the page), with the system font stack and nothing that loads (no url(), no @import,
// no web font). Kept apart from globals.css on purpose: the report must not change when the app's layout does.
export const REPORT_CSS = `
:root{--bg:#f6f7f9;--panel:#fff;--text:#1b1f24;--muted:#5b6470;--border:#dde1e6;--accent:#2457c5;--accent-weak:#e8eefb;
--ok:#1a7f37;--ok-weak:#e6f4ea;--bad:#c0362c;--bad-weak:#fbeae8;--warn:#9a6700;--warn-weak:#fff5d6;--radius:8px;
--s1:4px;--s2:8px;--s3:12px;--s4:16px;--s5:24px;--mono:ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"Liberation Mono",monospace;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;font-size:15px;line-height:1.45;color:var(--text);background:var(--bg)}
*{box-sizing:border-box}body{margin:0}
main{max-width:1200px;margin:0 auto;padding:var(--s5) var(--s4)}
h1{font-size:1.5rem;margin:0 0 var(--s4)}h2{font-size:1.1rem;margin:0 0 var(--s3)}h3{font-size:1rem;margin:0 0 var(--s2)}
code,.mono{font-family:var(--mono);font-size:.9em}.muted{color:var(--muted)}.small{font-size:.85rem}.hint{color:var(--muted);font-size:.82rem}
.topbar{background:#14181f;color:#fff}.topbar-inner{max-width:1200px;margin:0 auto;display:flex;align-items:center;gap:var(--s5);padding:var(--s3) var(--s4);flex-wrap:wrap}
.brand{font-weight:700}.brand span{font-weight:400;color:#aab3bf}
.panel{background:var(--panel);border:1px solid var(--border);border-radius:var(--radius);padding:var(--s4)}
.stack>*+*{margin-top:var(--s4)}.grid{display:grid;gap:var(--s4)}
.row{display:flex;gap:var(--s3);align-items:center;flex-wrap:wrap}
.spread{display:flex;justify-content:space-between;align-items:center;gap:var(--s3);flex-wrap:wrap}.spread>h1,.spread>h2,.spread>h3{margin:0}
.badge{display:inline-flex;align-items:center;gap:6px;font-size:.8rem;font-weight:600;padding:2px 8px;border-radius:999px;background:var(--accent-weak);color:var(--accent);white-space:nowrap}
.badge.ok{background:var(--ok-weak);color:var(--ok)}.badge.bad{background:var(--bad-weak);color:var(--bad)}.badge.warn{background:var(--warn-weak);color:var(--warn)}.badge.neutral{background:#eef0f3;color:var(--muted)}
table.data{width:100%;border-collapse:collapse;font-variant-numeric:tabular-nums}
table.data th,table.data td{text-align:left;padding:6px 10px;border-bottom:1px solid var(--border);vertical-align:top}
table.data th{font-size:.8rem;text-transform:uppercase;letter-spacing:.3px;color:var(--muted);font-weight:600}
table.data td.num,table.data th.num{text-align:right}
table.data caption{text-align:left;font-weight:600;font-size:.9rem;padding-bottom:var(--s2)}
table.data.compact th,table.data.compact td{padding:4px 8px}
table.data tbody th{text-transform:none;letter-spacing:0;font-size:.9rem;color:var(--text);font-weight:600}
table.kv th{width:34%}.nowrap{white-space:nowrap}.table-wrap{overflow-x:auto}
.alert{padding:var(--s3) var(--s4);border-radius:var(--radius);border:1px solid;overflow-wrap:anywhere}
.alert.bad{background:var(--bad-weak);border-color:#eab5af;color:#7d1f18}.alert.ok{background:var(--ok-weak);border-color:#a9d8b5;color:#11522a}.alert.warn{background:var(--warn-weak);border-color:#ecd48a;color:#6b4a00}
.kpi{display:flex;flex-direction:column}.kpi .v{font-size:1.3rem;font-weight:700;font-variant-numeric:tabular-nums}.kpi .k{color:var(--muted);font-size:.85rem}
.kpi-row{display:grid;grid-template-columns:repeat(4,minmax(0,1fr));gap:var(--s4)}.kpi-row .kpi{gap:2px}
ul.plain{margin:0;padding-left:1.1em}
pre.cmd{margin:var(--s2) 0 0;padding:var(--s3);background:#14181f;color:#e6edf3;border-radius:6px;font-family:var(--mono);font-size:.82rem;white-space:pre-wrap;overflow-wrap:anywhere}
.chart-card .chart-title{margin-bottom:var(--s2);font-size:1rem}.chart-group-title{font-size:1rem}
figure.report-chart{margin:0}figure.report-chart svg{display:block;max-width:100%;height:auto}
@media (max-width:720px){.kpi-row{grid-template-columns:repeat(2,minmax(0,1fr))}}
@media print{body{background:#fff}.panel{break-inside:avoid}}
`;
