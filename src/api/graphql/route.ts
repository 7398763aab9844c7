// /graphql over HTTP (POST and GET), behind the same middleware chain as /api; GET runs queries only, never mutations.
import type { Context } from 'hono';
import type { ApiApp, ApiDeps, ApiEnv } from '../context.js';
import { ApiErrorCode } from '../errors.js';
import { jsonResponse } from '../json.js';
import { badRequest } from './bad-request.js';
import type { GraphqlEngine, GraphqlRequest } from './engine.js';

function parseJson(text: string, what: string): { value?: unknown; error?: Response } {
  try {
    return { value: JSON.parse(text) };
  } catch (err) {
    return { error: badRequest(`${what} is not valid JSON: ${(err as Error).message}`) };
  }
}

/** Operations one batched request may carry (Apollo-style JSON array); each runs under the single-request limits. */
export const MAX_BATCH = 20;

async function readPost(c: Context): Promise<{ request?: GraphqlRequest | GraphqlRequest[]; error?: Response }> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  // Only types a foreign page cannot send without a CORS preflight: a form or text/plain POST could forge a mutation.
  if (type !== 'application/json' && type !== 'application/graphql') {
    return { error: jsonResponse({ code: ApiErrorCode.UnsupportedMediaType, message: `content-type ${type || '(none)'} is not accepted: send application/json`, errors: [{ message: 'send application/json' }] }, 415) };
  }
  const text = await c.req.text();
  if (type === 'application/graphql') return { request: { query: text } };
  if (text.trim() === '') return { error: badRequest('empty body: expected JSON {"query": …, "variables": …}') };
  const { value, error } = parseJson(text, 'body');
  if (error) return { error };
  if (Array.isArray(value)) {
    if (value.length === 0) return { error: badRequest('empty batch: send at least one {"query": …} object') };
    if (value.length > MAX_BATCH) return { error: badRequest(`a batch holds at most ${MAX_BATCH} operations, got ${value.length}`) };
    return { request: value.map((v) => (v && typeof v === 'object' && !Array.isArray(v) ? v : {}) as GraphqlRequest) };
  }
  if (!value || typeof value !== 'object') return { error: badRequest('body must be a JSON object with a "query" string, or an array of them') };
  return { request: value as GraphqlRequest };
}

function readGet(c: Context): { request?: GraphqlRequest; error?: Response } {
  const variables = c.req.query('variables');
  let parsed: unknown;
  if (variables !== undefined && variables !== '') {
    const r = parseJson(variables, 'variables');
    if (r.error) return { error: r.error };
    parsed = r.value;
  }
  return { request: { query: c.req.query('query'), variables: parsed, operationName: c.req.query('operationName') } };
}

/**
 * A batch (brec's server accepts them, as Apollo clients send them): one answer per operation, in order, each the
 * body a single request would get. Run one after another, so a batch never loads the server more than its parts.
 * The status is 200, or the first refusal's 403 when an operation was refused for its origin.
 */
async function runBatch(c: Context<ApiEnv>, requests: GraphqlRequest[], run: (c: Context<ApiEnv>, r: GraphqlRequest) => Promise<Response>): Promise<Response> {
  const answers: unknown[] = [];
  let status = 200;
  for (const request of requests) {
    const res = await run(c, request);
    if (res.status === 403) status = 403;
    answers.push(await res.json());
  }
  return jsonResponse(answers, status);
}

export function registerGraphqlRoutes(app: ApiApp, deps: ApiDeps): void {
  // graphql-js and the schema load on the first request: most processes never get one, and they cost the main
  // thread about 2 MB of heap and ~20 ms at start.
  let engine: Promise<GraphqlEngine> | null = null;
  const run = async (c: Context<ApiEnv>, request: GraphqlRequest): Promise<Response> => {
    engine ??= import('./engine.js').then((m) => m.createGraphqlEngine(deps));
    return (await engine)(c, request);
  };

  app.post('/graphql', async (c) => {
    const { request, error } = await readPost(c);
    if (error) return error;
    return Array.isArray(request) ? runBatch(c, request, run) : run(c, request!);
  });
  app.get('/graphql', async (c) => {
    const { request, error } = readGet(c);
    return error ?? run(c, request!);
  });
}
