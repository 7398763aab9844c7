// Server-Sent Events wire format: one frame per event, `data` JSON on a single line.

/** An SSE frame; `id` is omitted for frames that cannot be resumed (stats, logs). */
export function sseFrame(event: string, data: unknown, id?: number): string {
  // JSON.stringify escapes line breaks inside strings, so the data is always one line.
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Parses a Last-Event-ID value; anything but a non-negative integer means "no resume". */
export function parseEventId(value: string | undefined | null): number | null {
  if (value === undefined || value === null || !/^\d{1,15}$/.test(value.trim())) return null;
  return Number(value.trim());
}
