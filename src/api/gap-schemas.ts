// OpenAPI components of liverec's gap extension to brec's event data (webhook v2, /api/events): Gaps and BackfillMs.
import { z } from '@hono/zod-openapi';
import { GAP_REASONS } from '../events/types.js';
import type { ApiApp } from './context.js';

export const FileGapSchema = z.object({
  StartMs: z.number().int().openapi({ description: 'ms from the file\'s start where the missing media would have been' }),
  DurationMs: z.number().int().openapi({ description: 'ms of stream the file lacks there' }),
  Reason: z.enum(GAP_REASONS).openapi({ description: 'reconnect: a dropped connection\'s interval that could not be filled from HLS; hls-segment: segments that could not be fetched; timestamp-jump: a forward jump the repair closed' }),
}).openapi('FileGap');

/** A gap of the current session (room resource): a flat object, since brec's SDK generator cannot render allOf. */
export const SessionGapSchema = z.object({
  ...FileGapSchema.shape,
  RelativePath: z.string().openapi({ description: 'the file (relative to the work directory) that lacks this interval' }),
}).openapi('SessionGapDto');

/** Registered as components only: the events themselves travel over webhooks and the event stream. */
export function registerGapSchemas(app: ApiApp): void {
  app.openAPIRegistry.register('FileClosedEventDataExtension', z.object({
    Gaps: z.array(FileGapSchema).optional().openapi({ description: 'After brec\'s fields, only when the file lacks media; see docs/gaps.md' }),
    Markers: z.array(z.object({
      AtMs: z.number().int().openapi({ description: 'ms on the file\'s timeline' }),
      Label: z.string(),
    }).openapi('FileMarker')).optional().openapi({ description: 'Moments marked while the file was recorded, by time; only when there are some; see docs/clips.md' }),
  }).openapi({ description: 'liverec extension of FileClosed EventData (webhook v2 and /api/events)' }));
  app.openAPIRegistry.register('FileOpeningEventDataExtension', z.object({
    BackfillMs: z.number().int().optional().openapi({ description: 'A late start reached this many ms before the live position (older HLS segments)' }),
  }).openapi({ description: 'liverec extension of FileOpening EventData (webhook v2 and /api/events)' }));
}
