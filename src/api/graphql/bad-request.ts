// A GraphQL request-level error: liverec's `{code, message}` plus GraphQL's `errors`, so either kind of client can read it.
import { ApiErrorCode } from '../errors.js';
import { jsonResponse } from '../json.js';

export const badRequest = (message: string, status = 400, headers: Record<string, string> = {}): Response =>
  jsonResponse({ code: status === 405 ? ApiErrorCode.MethodNotAllowed : ApiErrorCode.InvalidRequest, message, errors: [{ message }] }, status, headers);
