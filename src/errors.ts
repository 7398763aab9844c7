// Coded errors: the stable `code` is the contract; instances survive thread boundaries as plain objects.

/** A plain, structured-clone-safe description of an error. */
export interface PlainError {
  name: string;
  code: string;
  message: string;
  stack?: string;
  cause?: PlainError;
}

/** Base error of liverec. `code` is stable and machine-readable; messages are for humans. */
export class LiverecError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LiverecError';
    this.code = code;
  }

  /** Rebuilds an error from its plain form (e.g. received from a worker). */
  static fromPlain(plain: PlainError): LiverecError {
    const cause = plain.cause ? LiverecError.fromPlain(plain.cause) : undefined;
    const err = new LiverecError(plain.code, plain.message, cause ? { cause } : undefined);
    if (plain.stack) err.stack = plain.stack;
    return err;
  }
}

/** Returns the `code` of any thrown value, or 'UNKNOWN'. */
export function errorCode(err: unknown): string {
  if (err && typeof err === 'object' && 'code' in err && typeof (err as { code: unknown }).code === 'string') {
    return (err as { code: string }).code;
  }
  return 'UNKNOWN';
}

/** Converts any thrown value into a plain error that postMessage can carry without losing `code`. */
export function toPlainError(err: unknown, depth = 0): PlainError {
  if (err instanceof Error) {
    const plain: PlainError = { name: err.name, code: errorCode(err), message: err.message, stack: err.stack };
    if (err.cause !== undefined && depth < 4) plain.cause = toPlainError(err.cause, depth + 1);
    return plain;
  }
  return { name: 'NonError', code: errorCode(err), message: String(err) };
}
