// The app container's health check (deploy/compose.yaml, deploy/kubernetes/app.yaml): healthy once the web app
// answers and reads its control store. /api/health's own status is 503 while no runner heart-beats (runners start
// after the app is healthy) or the default target is down, so this reads its body rather than its status.
// Plain JavaScript: it runs with the image's node, without tsx.
const port = process.env.PORT ?? "3000";
try {
  const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(4000) });
  const body = await res.json();
  if (body?.controlStore?.up === true) process.exit(0);
  console.error(`not ready: ${body?.controlStore?.detail ?? body?.detail ?? `HTTP ${res.status}`}`);
} catch (err) {
  console.error(`not ready: ${err.message}`);
}
process.exit(1);
