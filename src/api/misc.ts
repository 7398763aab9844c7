// POST /api/misc/generateFileName: renders a file-name template against given context values (not sanitised).
import { createRoute, z } from '@hono/zod-openapi';
import { previewFileName } from '../template/preview-pool.js';
import { caseInsensitive } from './body.js';
import type { ApiApp } from './context.js';
import { ApiErrorCode, errorContent } from './errors.js';
import { sendJson } from './json.js';
import { Int32Schema, Int64Schema } from './schemas.js';

const ContextSchema = caseInsensitive(
  z.object({
    roomId: Int32Schema.optional(),
    shortId: Int32Schema.optional(),
    name: z.string().nullable().optional(),
    uid: Int64Schema.optional(),
    title: z.string().nullable().optional(),
    areaParent: z.string().nullable().optional(),
    areaChild: z.string().nullable().optional(),
    partIndex: Int32Schema.optional(),
    qn: Int32Schema.optional(),
    json: z.string().nullable().optional().openapi({ description: 'A string holding a JSON object (getInfoByRoom data), e.g. "{}"' }),
  }).openapi('FileNameTemplateContextDto'),
);

export const GenerateFileNameInputSchema = caseInsensitive(
  z.object({
    template: z.string().nullable().optional().openapi({ description: 'Liquid template; blank = the default template' }),
    // Nullable as in brec's document; a null or absent context renders with every value at its default.
    context: ContextSchema.nullable().optional(),
  }).openapi('GenerateFileNameInput'),
);

export const FileNameOutputSchema = z
  .object({
    status: z.number().int().openapi('FileNameTemplateStatus', { enum: [0, 1, 2, 3], format: 'int32', description: '0 Success, 1 TemplateError, 2 OutOfRange, 3 FileConflict' }),
    errorMessage: z.string().nullable(),
    relativePath: z.string().openapi({ description: 'On error: the default template\'s path' }),
    fullPath: z.string().nullable(),
  })
  .openapi('FileNameTemplateOutput');

const route = createRoute({
  method: 'post', path: '/api/misc/generatefilename', summary: '根据传入参数生成录播文件名', tags: ['Misc'],
  description: 'Renders with work directory "/". Unlike recording, context values are not sanitised and no file system is consulted.',
  request: { body: { content: { 'application/json': { schema: GenerateFileNameInputSchema } }, required: true } },
  responses: {
    200: { content: { 'application/json': { schema: FileNameOutputSchema } }, description: 'The rendered path and status' },
    400: { content: errorContent, description: 'Invalid body, or context.json is not a JSON object (-10)' },
  },
});

export function registerMiscRoutes(app: ApiApp): void {
  app.openapi(route, async (c) => {
    const { template, context } = c.req.valid('json');
    const ctx = context ?? {};
    let json: unknown = null;
    if (ctx.json !== null && ctx.json !== undefined) {
      try {
        json = JSON.parse(ctx.json);
      } catch (err) {
        return sendJson(c, { code: ApiErrorCode.InvalidRequest, message: `invalid field context.json: not valid JSON (${(err as Error).message})` }, 400);
      }
      if (!json || typeof json !== 'object' || Array.isArray(json)) {
        return sendJson(c, { code: ApiErrorCode.InvalidRequest, message: 'invalid field context.json: expected a JSON object' }, 400);
      }
    }
    // Off the main thread and time-boxed: a nested-loop template must not stall every other request.
    const result = await previewFileName(
      {
        roomId: ctx.roomId ?? 0, shortId: ctx.shortId ?? 0, name: ctx.name ?? '', uid: ctx.uid ?? 0, title: ctx.title ?? '',
        areaParent: ctx.areaParent ?? '', areaChild: ctx.areaChild ?? '', partIndex: ctx.partIndex ?? 0, qn: ctx.qn ?? 0, json,
      },
      template,
    );
    return sendJson(c, result, 200);
  });
}
