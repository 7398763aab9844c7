// Waits for a promise that other callers share, until this caller's signal says it no longer wants the answer.
import { BiliErrorCode, BilibiliError } from './errors.js';

/**
 * `shared` as it settles, or a rejection ('API call cancelled', as an aborted call) once `signal` aborts first. The
 * shared work itself goes on: only this caller stops waiting for it.
 */
export function untilAborted<T>(shared: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return shared;
  const cancelled = (): BilibiliError => new BilibiliError(BiliErrorCode.ApiNetwork, 'API call cancelled', { cause: signal.reason });
  if (signal.aborted) {
    shared.catch(() => undefined); // settled by its other waiters; not an unhandled rejection here
    return Promise.reject(cancelled());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    shared.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
