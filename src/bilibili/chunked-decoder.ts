// HTTP/1.1 chunked transfer decoding over arbitrary read boundaries, handing out body slices without copying.
import { BiliErrorCode, BilibiliError } from './errors.js';

const enum S { Size, Ext, SizeLf, Data, DataCr, DataLf, Trailer, TrailerLf, Done }

const hexValue = (c: number): number =>
  c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1;

export class ChunkedDecoder {
  private state = S.Size;
  private size = 0;
  private digits = 0;
  private remaining = 0;
  private lineLength = 0;

  get done(): boolean {
    return this.state === S.Done;
  }

  /** Decodes `buf[start, end)`; body bytes go to `onData` as views into `buf`. Throws on malformed framing. */
  feed(buf: Uint8Array, start: number, end: number, onData: (body: Uint8Array) => void): void {
    let i = start;
    while (i < end && this.state !== S.Done) {
      if (this.state === S.Data) {
        const n = Math.min(this.remaining, end - i);
        onData(buf.subarray(i, i + n));
        i += n;
        this.remaining -= n;
        if (this.remaining === 0) this.state = S.DataCr;
        continue;
      }
      const c = buf[i++]!;
      switch (this.state) {
        case S.Size: {
          const v = hexValue(c);
          if (v >= 0 && this.digits < 12) {
            this.size = this.size * 16 + v;
            this.digits++;
          } else if (this.digits > 0 && (c === 0x3b || c === 0x20 || c === 0x09)) this.state = S.Ext;
          else if (this.digits > 0 && c === 0x0d) this.state = S.SizeLf;
          else throw this.malformed('chunk size');
          break;
        }
        case S.Ext:
          if (c === 0x0d) this.state = S.SizeLf;
          break;
        case S.SizeLf:
          if (c !== 0x0a) throw this.malformed('chunk size line');
          this.remaining = this.size;
          this.state = this.size === 0 ? S.Trailer : S.Data;
          this.size = this.digits = this.lineLength = 0;
          break;
        case S.DataCr:
          if (c !== 0x0d) throw this.malformed('chunk end');
          this.state = S.DataLf;
          break;
        case S.DataLf:
          if (c !== 0x0a) throw this.malformed('chunk end');
          this.state = S.Size;
          break;
        case S.Trailer:
          if (c === 0x0d) this.state = S.TrailerLf;
          else this.lineLength++;
          break;
        case S.TrailerLf:
          if (c !== 0x0a) throw this.malformed('trailer');
          this.state = this.lineLength === 0 ? S.Done : S.Trailer;
          this.lineLength = 0;
          break;
      }
    }
  }

  private malformed(where: string): BilibiliError {
    return new BilibiliError(BiliErrorCode.StreamAborted, `Malformed chunked encoding in the ${where}`);
  }
}
