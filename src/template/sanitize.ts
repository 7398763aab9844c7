// File-name sanitisation of brec's generator: values before rendering, the rendered relative path after.

// Windows' invalid file-name characters (a superset of Linux's), so recordings stay copyable to any disk or share.
const INVALID_WITH_SLASHES = /["<>|:*?\\/\u0000-\u001f]/g;
const INVALID_KEEP_SLASHES = /["<>|:*?\u0000-\u001f]/g;

/** Pre-sanitises a context value during recording: every invalid character, slashes included, becomes `_`. */
export function sanitizeValue(value: string): string {
  return value.replace(INVALID_WITH_SLASHES, '_');
}

/**
 * Sanitises a rendered relative path: invalid characters except slashes become `_`, backslashes become `/`,
 * and a space or dot right before a slash gets `_` appended (`a./b` → `a._/b`), so no segment ends in one.
 * As a consequence `..` segments become `.._` and cannot climb out of the work directory.
 */
export function sanitizeRenderedPath(path: string): string {
  return path.replace(INVALID_KEEP_SLASHES, '_').replace(/\\/g, '/').replace(/([ .])(?=\/)/g, '$1_');
}
