// FLV error codes: fatal input problems are values with stable codes, never bare strings.
import { LiverecError } from '../errors.js';

export type FlvErrorCode =
  | 'NOT_FLV'
  | 'UNSUPPORTED_FLV_HEADER'
  | 'UNKNOWN_TAG_TYPE'
  | 'UNSUPPORTED_CODEC'
  | 'TRUNCATED'
  | 'AMF_ERROR';

export class FlvError extends LiverecError {
  declare readonly code: FlvErrorCode;

  constructor(code: FlvErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'FlvError';
  }
}
