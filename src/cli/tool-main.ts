// `liverec tool …` on its own: the launcher runs this bundle (dist/cli/tool.cjs) for tool commands, so a file
// repair compiles and deserializes only the tool family, not the recorder, cluster and simulator code.
import { newProgram, runProgram } from './program.js';
import { registerToolCommand } from './tool-command.js';

export async function main(argv: readonly string[]): Promise<void> {
  const program = newProgram();
  registerToolCommand(program);
  await runProgram(program, argv);
}
