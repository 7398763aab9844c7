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

async function readPost(c: Context): Promise<{ request?: GraphqlRequest; error?: Response }> {
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
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { error: badRequest('body must be a JSON object with a "query" string') };
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
    return error ?? run(c, request!);
  });
  app.get('/graphql', async (c) => {
    const { request, error } = readGet(c);
    return error ?? run(c, request!);
  });
}
