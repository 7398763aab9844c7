// The two-lane 32-bit mixing step of Fingerprint64's JavaScript state, shared with the WebAssembly collecting loop.

/** The lanes' starting values (as signed 32-bit integers). */
export const MIX_SEED1 = 0x9e3779b9 | 0;
export const MIX_SEED2 = 0x85ebca6b | 0;
/** h1 = (h1 ^ v)·M1 + (h2 >>> 15); h2 = (h2 ^ K)·M2 + (h1 >>> 13), all modulo 2^32. */
export const MIX_M1 = 0x01000193;
export const MIX_M2 = 0x5bd1e995;
export const MIX_K = 0x2545f491;
