/** The container HEALTHCHECK: exits 0 when this service's /healthz answers 200 within 2 s. */
const port = process.env.PORT ?? '3000';
fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
  (response) => process.exit(response.ok ? 0 : 1),
  () => process.exit(1),
);
