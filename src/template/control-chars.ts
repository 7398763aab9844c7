// Text from outside (names, titles, areas) without control characters, before it reaches a file name, an argument or an environment variable.
/*
 * Why: the operating system refuses a NUL in an argument or an environment value (Node throws "must be a string
 * without null bytes"), so one NUL in a room title made every PostCommand of that room fail; other C0/C1 controls
 * and DEL do nothing useful in a name and can forge terminal output. Tabs, line breaks and the rest become nothing.
 */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** `text` with every C0 control, DEL and C1 control removed. */
export function stripControlChars(text: string): string {
  return ANY_CONTROL.test(text) ? text.replace(CONTROLS, '') : text;
}
