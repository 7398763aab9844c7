// A parse budget for JSON answers of the live service: nesting depth and value count checked in one linear pass before JSON.parse.
/*
 * Why: the answer cap (4 MiB) bounds bytes, not what JSON.parse builds from them. A 3.8 MB `[[[…]]]` becomes ~1.9
 * million nested arrays: more than a room thread's 96 MB heap (the thread died, and every room on it), and on the
 * main thread's batch status call 1.6 s of parsing and 400 MB. Real answers are at most 12 deep with a few thousand
 * tokens (the captures in shared/testdata/bili-real/api/: getInfoByRoom ~3,500 in 58 KB; a batch status room
 * 95, so a 500-uid batch ~47,500), so the limits below leave an order of magnitude and still bound what the parse
 * builds (500,000 tokens are at most ~250,000 values: ~10 MB of heap whatever their shape).
 * The pass reads char codes, never recurses and allocates nothing.
 */

export interface JsonBudget {
  /** Deepest nesting of arrays and objects. */
  maxDepth: number;
  /** Tokens in the whole document: opening brackets, strings, commas and colons (one to three a value). */
  maxTokens: number;
}

export const LIVE_API_JSON_BUDGET: JsonBudget = { maxDepth: 32, maxTokens: 500_000 };

const QUOTE = 0x22, BACKSLASH = 0x5c, OPEN_ARRAY = 0x5b, CLOSE_ARRAY = 0x5d, OPEN_OBJECT = 0x7b, CLOSE_OBJECT = 0x7d, COMMA = 0x2c, COLON = 0x3a;

/** Why `text` is over the budget, or null when it is within it. Malformed text is left to JSON.parse to refuse. */
export function overJsonBudget(text: string, budget: JsonBudget = LIVE_API_JSON_BUDGET): string | null {
  let depth = 0;
  let tokens = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Skips the string; an escape skips the character after it.
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
      tokens++;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      tokens++;
      if (++depth > budget.maxDepth) return `nested deeper than ${budget.maxDepth} levels`;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    } else if (c === COMMA || c === COLON) {
      // Scalars (numbers, true, false, null) have no token of their own: the separator after each stands for it.
      tokens++;
    }
    if (tokens > budget.maxTokens) return `more than ${budget.maxTokens} tokens`;
  }
  return null;
}
