// File-name components cut to the file system's byte limit (255 bytes on ext4, XFS, Btrfs, NTFS in UTF-16 units ≥ this).

/** Bytes allowed per path component (NAME_MAX). */
export const MAX_COMPONENT_BYTES = 255;

/** The longest prefix of `s` whose UTF-8 form fits in `maxBytes`, never splitting a character. */
export function truncateUtf8(s: string, maxBytes: number): string {
  if (Buffer.byteLength(s) <= maxBytes) return s;
  let bytes = 0;
  let end = 0;
  for (const ch of s) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > maxBytes) break;
    bytes += n;
    end += ch.length;
  }
  return s.slice(0, end);
}

/** A directory component must not end in a space or dot (the sanitiser's rule), also after a cut. */
const fixEnd = (c: string): string => c.replace(/[ .]$/, '_');

/**
 * Cuts every component of a `/`-separated relative path to MAX_COMPONENT_BYTES. The last one keeps its
 * extension and leaves `reserve` bytes free (for a `-N` uniqueness suffix added later).
 */
export function fitPathBytes(relativePath: string, reserve = 0): string {
  const parts = relativePath.split('/');
  const last = parts.length - 1;
  return parts.map((part, i) => {
    if (i < last) return Buffer.byteLength(part) > MAX_COMPONENT_BYTES ? fixEnd(truncateUtf8(part, MAX_COMPONENT_BYTES)) : part;
    return fitFileName(part, reserve);
  }).join('/');
}

/** Cuts a file name's stem so that stem + `reserve` bytes + extension fit in MAX_COMPONENT_BYTES. */
export function fitFileName(name: string, reserve = 0): string {
  if (Buffer.byteLength(name) + reserve <= MAX_COMPONENT_BYTES) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot) : '';
  const stem = dot > 0 ? name.slice(0, dot) : name;
  return truncateUtf8(stem, MAX_COMPONENT_BYTES - reserve - Buffer.byteLength(ext)) + ext;
}
