// Runs one GraphQL request against brec's schema: parse, validate (with the cross-origin rule), execute.
import { execute, getOperationAST, parse, specifiedRules, validate, type DocumentNode } from 'graphql';
import type { Context } from 'hono';
import type { ApiDeps, ApiEnv } from '../context.js';
import { ApiErrorCode } from '../errors.js';
import { JSON_HEADERS, jsonResponse } from '../json.js';
import { badRequest } from './bad-request.js';
import { createRootValue } from './resolvers.js';
import { brecSchema } from './schema.js';
import { noSettingsForUntrustedOrigin } from './settings-rule.js';
import { MAX_ANSWER_BYTES, MAX_QUERY_COST, queryCost } from './cost-limit.js';

export interface GraphqlRequest {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
  // The WebUI also sends a non-standard `queryName`; like every unknown member it is ignored.
}

export type GraphqlEngine = (c: Context<ApiEnv>, request: GraphqlRequest) => Promise<Response>;

export function createGraphqlEngine(deps: ApiDeps): GraphqlEngine {
  const schema = brecSchema();
  const rootValue = createRootValue(deps);
  return async (c, request) => {
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
    const cost = queryCost(schema, document, operation, deps.recorder.rooms.length);
    if (cost > MAX_QUERY_COST) {
      return badRequest(`the query would select more than ${MAX_QUERY_COST} fields (aliases × list sizes); ask for fewer fields or rooms`);
    }
    const result = await execute({
      schema, document, rootValue, contextValue: deps,
      variableValues: (variables ?? undefined) as Record<string, unknown> | undefined, operationName: operationName ?? undefined,
    });
    const body = JSON.stringify(result);
    if (body.length > MAX_ANSWER_BYTES) return badRequest(`the answer would exceed ${MAX_ANSWER_BYTES} bytes; ask for fewer fields or rooms`, 413);
    return new Response(body, { status: 200, headers: JSON_HEADERS });
  };
}
