// FLV error codes: fatal input problems are values with stable codes, never bare strings.
import { LiverecError } from '../errors.js';

/**
 * Stable codes of the FLV engine.
 * - NOT_FLV / UNSUPPORTED_FLV_HEADER: the first 9 bytes are not an FLV header brec accepts.
 * - UNKNOWN_TAG_TYPE / UNSUPPORTED_CODEC: a tag the pipeline cannot carry (type not 8/9/18, video not AVC).
 * - TRUNCATED: the stream is empty, or ended inside a tag.
 * - AMF_ERROR: a script body is not valid AMF0 (the parser counts these instead of failing).
 * - XML_FORMAT: a brec XML tag list cannot be read.
 * - MISSING_HEADER: the writer was asked to open a file without AVC/AAC sequence headers.
 * - WRITER_FAILED: the writer failed earlier and refuses further work.
 * - OUTPUT_IO / INPUT_IO: the file system refused a read or write.
 * - TAG_TOO_LARGE: a live tag declares more bytes than the capture's limit (it is refused unread).
 */
export type FlvErrorCode =
  | 'NOT_FLV'
  | 'UNSUPPORTED_FLV_HEADER'
  | 'UNKNOWN_TAG_TYPE'
  | 'UNSUPPORTED_CODEC'
  | 'TRUNCATED'
  | 'AMF_ERROR'
  | 'XML_FORMAT'
  | 'MISSING_HEADER'
  | 'WRITER_FAILED'
  | 'OUTPUT_IO'
  | 'INPUT_IO'
  | 'TAG_TOO_LARGE';

export class FlvError extends LiverecError {
  declare readonly code: FlvErrorCode;

  constructor(code: FlvErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'FlvError';
  }
}
