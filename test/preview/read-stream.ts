// The preview hub tests' reader: the first `bytes` of a preview stream (or all of it, if it ends first).
export async function readSome(stream: ReadableStream<Uint8Array>, bytes: number): Promise<Buffer> {
  const reader = stream.getReader();
  const got: Buffer[] = [];
  let n = 0;
  while (n < bytes) {
    const r = await reader.read();
    if (r.done) break;
    got.push(Buffer.from(r.value));
    n += r.value.length;
  }
  reader.releaseLock();
  return Buffer.concat(got);
}
