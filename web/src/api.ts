// Same-origin JSON calls to liverec's API: relative to the server root, JSON on every write, errors as {code, message}.

/** The server root: the page lives at <root>/ui/, so this also works behind a prefix-stripping proxy. */
export const serverRoot = new URL('../', document.baseURI);

export const apiUrl = (path: string): string => new URL(path.replace(/^\//, ''), serverRoot).toString();

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: number, message: string) {
    super(message);
  }
}

export async function api<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const res = await fetch(apiUrl(path), {
    method,
    credentials: 'same-origin',
    // JSON on every write, even bodiless ones: the API refuses state changes that are not JSON (CSRF protection).
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
  });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: reported below with the status.
  }
  if (!res.ok) {
    const e = (data ?? {}) as { code?: number; message?: string };
    throw new ApiError(res.status, e.code ?? -1, e.message ?? `HTTP ${res.status}`);
  }
  return data as T;
}

/** Accepts a room id, a short id or a live-room URL (https://live.bilibili.com/123?…). */
export function parseRoomInput(input: string): number | null {
  const s = input.trim();
  const m = /^(?:https?:\/\/)?live\.bilibili\.com\/(?:h5\/|blanc\/)?(\d+)/i.exec(s) ?? /^(\d+)$/.exec(s);
  if (!m) return null;
  const n = Number(m[1]);
  return Number.isSafeInteger(n) && n > 0 && n <= 2147483647 ? n : null;
}
