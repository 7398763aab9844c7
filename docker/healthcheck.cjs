// The image's HEALTHCHECK: GET /api/version on the container's own port, with Basic auth when the service requires it.
const user = process.env.BREC_HTTP_BASIC_USER ?? '';
const pass = process.env.BREC_HTTP_BASIC_PASS ?? '';
const headers = user || pass ? { authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}` } : {};
fetch(`http://127.0.0.1:${process.env.LIVEREC_HEALTH_PORT ?? 2356}/api/version`, { headers, signal: AbortSignal.timeout(4000) })
  .then((res) => process.exit(res.ok ? 0 : 1), () => process.exit(1));
