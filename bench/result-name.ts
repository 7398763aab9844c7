// Results file names that never overwrite an earlier run of the same day: `<stem>`, then `<stem>-2`, `<stem>-3`…
import { existsSync } from 'node:fs';

/** The first of `stem`, `stem-2`, … for which no `<name><ext>` exists yet (for each of `exts`). */
export function freshStem(stem: string, exts: string[] = ['.json']): string {
  for (let n = 1; ; n++) {
    const name = n === 1 ? stem : `${stem}-${n}`;
    if (exts.every((e) => !existsSync(`${name}${e}`))) return name;
  }
}
