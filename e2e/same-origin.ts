// Playwright's request fixture sends no Origin; the app refuses state-changing requests without a same-origin
// one (lib/api/request-guard.ts), as it would a cross-site page. API calls in specs send the app's own origin.
export const SAME_ORIGIN = { origin: `http://127.0.0.1:${process.env.E2E_PORT ?? 3199}` };
