// /graphql over HTTP (POST and GET), behind the same middleware chain as /api; GET runs queries only, never mutations.
import { execute, getOperationAST, parse, specifiedRules, validate, type DocumentNode } from 'graphql';
import type { Context } from 'hono';
import type { ApiApp, ApiDeps, ApiEnv } from '../context.js';
import { ApiErrorCode } from '../errors.js';
import { jsonResponse } from '../json.js';
import { createRootValue } from './resolvers.js';
import { brecSchema } from './schema.js';
import { noSettingsForUntrustedOrigin } from './settings-rule.js';

interface GraphqlRequest {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
  // The WebUI also sends a non-standard `queryName`; like every unknown member it is ignored.
}

/** A request-level error: liverec's `{code, message}` plus GraphQL's `errors`, so either kind of client can read it. */
const badRequest = (message: string, status = 400, headers: Record<string, string> = {}): Response =>
  jsonResponse({ code: status === 405 ? ApiErrorCode.MethodNotAllowed : ApiErrorCode.InvalidRequest, message, errors: [{ message }] }, status, headers);

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
  const schema = brecSchema();
  const rootValue = createRootValue(deps);

  const run = async (c: Context<ApiEnv>, request: GraphqlRequest): Promise<Response> => {
    const { query, variables, operationName } = request;
    if (typeof query !== 'string' || query.trim() === '') return badRequest('"query" must be a non-empty string');
    if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return badRequest('"variables" must be an object');
    if (operationName != null && typeof operationName !== 'string') return badRequest('"operationName" must be a string');
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: 20_000 });
    } catch (err) {
      return jsonResponse({ errors: [err] }, 400);
    }
    const rules = c.get('untrustedOrigin') ? [...specifiedRules, noSettingsForUntrustedOrigin] : specifiedRules;
    const invalid = validate(schema, document, rules);
    if (invalid.length > 0) {
      const refused = invalid.some((e) => e.extensions.code === 'CROSS_ORIGIN_REFUSED');
      return jsonResponse(refused ? { code: ApiErrorCode.CrossOriginRefused, message: invalid[0]!.message, errors: invalid } : { errors: invalid }, refused ? 403 : 400);
    }
    const operation = getOperationAST(document, operationName ?? undefined);
    if (!operation) return badRequest(operationName ? `no operation named "${operationName}"` : 'several operations: "operationName" is required');
    // Mutations change state: only POST, which passes the same guards as the REST API's POSTs.
    if (operation.operation !== 'query' && c.req.method !== 'POST') {
      return badRequest(`a ${operation.operation} needs POST`, 405, { allow: 'POST' });
    }
    const result = await execute({
      schema, document, rootValue, contextValue: deps,
      variableValues: (variables ?? undefined) as Record<string, unknown> | undefined, operationName: operationName ?? undefined,
    });
    return jsonResponse(result, 200);
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
