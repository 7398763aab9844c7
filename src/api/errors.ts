// Error bodies of the API: brec's RestApiError `{code, message}` with its codes, plus liverec's for HTTP-level errors.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ZodError } from 'zod';
import { jsonResponse, sendJson } from './json.js';

/** brec's RestApiErrorCode (-1 … -4) extended with liverec codes for errors brec answers with HTML or problem+json. */
export const ApiErrorCode = {
  Unknown: -1,
  RoomidOutOfRange: -2,
  RoomExist: -3,
  RoomNotFound: -4,
  InvalidRequest: -10,
  PayloadTooLarge: -11,
  NotFound: -12,
  MethodNotAllowed: -13,
  Unauthorized: -14,
  UnsupportedMediaType: -15,
  CrossOriginRefused: -16,
  TooManyRequests: -17,
  InsufficientStorage: -18,
  RoomLimitReached: -19,
} as const;

export const ApiErrorSchema = z
  .object({
    code: z.number().int().openapi('RestApiErrorCode', {
      enum: Object.values(ApiErrorCode),
      format: 'int32',
      description: 'brec: -2 RoomidOutOfRange, -4 RoomNotFound. liverec: -1 internal error, -10 invalid request (malformed JSON, ' +
        'wrong types), -11 body over 1 MiB, -12 no such path, -13 method not allowed, -14 unauthorized, -15 unsupported media type, ' +
        '-16 cross-origin request refused, -17 too many failed logins, -18 disk full (507), -19 MaxRooms reached',
      example: -4,
    }),
    message: z.string().openapi({ example: 'Room not found' }),
    errors: z.object({}).catchall(z.array(z.string())).optional()
      .openapi({ description: 'Per field (JSON path) messages of a validation error: one key per field, each a list of messages' }),
  })
  .openapi('RestApiError');
export type ApiError = z.infer<typeof ApiErrorSchema>;

export const errorContent = { 'application/json': { schema: ApiErrorSchema } } as const;

export const roomNotFound = (c: Context) => sendJson(c, { code: ApiErrorCode.RoomNotFound, message: 'Room not found' }, 404);
export const roomIdOutOfRange = (c: Context) =>
  sendJson(c, { code: ApiErrorCode.RoomidOutOfRange, message: 'Roomid must be greater than 0.' }, 400);

/** A readable summary of a zod error naming every offending field, plus the per-field map. */
export function describeZodError(error: ZodError, where: string): ApiError {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.') || '(root)';
    (errors[path] ??= []).push(issue.message);
  }
  const summary = Object.entries(errors).map(([path, msgs]) => `${path}: ${msgs.join('; ')}`).join(', ');
  return { code: ApiErrorCode.InvalidRequest, message: `invalid ${where}: ${summary}`, errors };
}

export function errorResponse(status: number, code: number, message: string, headers?: Record<string, string>): Response {
  return jsonResponse({ code, message }, status, headers);
}
