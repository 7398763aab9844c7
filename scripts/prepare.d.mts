// Types of scripts/prepare.mjs for the tests that import it.
export function sourceStamp(root?: string): string;
export function isFresh(stamp: string, root?: string): boolean;
