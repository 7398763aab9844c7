// OpenAPI component for liverec's `Source` extension of webhook v2 FileOpening/FileClosed EventData (see docs/origin.md).
import { z } from '@hono/zod-openapi';
import type { ApiApp } from './context.js';

export const WebhookEventSourceSchema = z
  .object({
    Kind: z.enum(['origin', 'reencode', 'transcode', 'unknown']),
    Qn: z.number().int(),
    Codec: z.string().openapi({ description: 'avc, hevc, av1 or empty' }),
    Bitrate: z.number().int().openapi({ description: 'bit/s of the variant, 0 when unknown' }),
    OriginBitrate: z.number().int().openapi({ description: 'bit/s of the streamer\'s source (origin_bitrate), 0 when unknown' }),
    StreamName: z.string(),
    Evidence: z.array(z.string()),
  })
  .openapi('WebhookEventSource', {
    description: 'liverec extension: FileOpening and FileClosed webhook v2 payloads (and `lifecycle` events of /api/events) carry ' +
      '`EventData.Source`, what the file\'s stream is: the streamer\'s origin, the CDN\'s re-encode (_bluray, sold as 原画), a transcode, ' +
      'or unknown, with the evidence. It comes after brec\'s fields; receivers that ignore unknown fields are unaffected.',
  });

export function registerSourceSchema(app: ApiApp): void {
  app.openAPIRegistry.register('WebhookEventSource', WebhookEventSourceSchema);
}
