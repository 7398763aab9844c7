// One real `liverec run` child process of the model test: started on a work directory, stopped by a signal.
import { spawn, type ChildProcess } from 'node:child_process';
import { cliEntry } from '../../src/paths.js';

export interface Exit {
  code: number | null;
  signal: string | null;
}

export class LiverecProcess {
  readonly child: ChildProcess;
  readonly exit: Promise<Exit>;
  exited: Exit | null = null;
  private out = '';
  private err = '';

  private constructor(readonly dir: string) {
    this.child = spawn(process.execPath, [cliEntry, 'run', dir, '--bind', 'http://127.0.0.1:0', '-l', 'Warning'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LIVEREC_LOG_LEVEL: undefined },
    });
    // Only the tail is kept: a long soak must not grow the test's memory.
    this.child.stdout!.on('data', (d: Buffer) => (this.out = (this.out + d.toString()).slice(-20_000)));
    this.child.stderr!.on('data', (d: Buffer) => (this.err = (this.err + d.toString()).slice(-20_000)));
    this.exit = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve((this.exited = { code, signal }))));
  }

  /** Starts the process and resolves with its API URL once it listens (bounded generously: a busy machine). */
  static async start(dir: string, timeoutMs = 60_000): Promise<{ proc: LiverecProcess; url: string }> {
    const proc = new LiverecProcess(dir);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const m = /Now listening on: (http:\/\/127\.0\.0\.1:\d+)/.exec(proc.out);
      if (m) return { proc, url: m[1]! };
      if (proc.exited || Date.now() > deadline) {
        proc.child.kill('SIGKILL');
        throw new Error(`liverec did not start (exit ${JSON.stringify(proc.exited)})\nstdout: ${proc.out}\nstderr: ${proc.err.slice(-4000)}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  get stderr(): string {
    return this.err;
  }

  /** The tail of what it printed (its terminal log). */
  get stdout(): string {
    return this.out;
  }

  /** Sends `signal` and waits for the exit (a SIGTERM that hangs past the bound is a failure, then killed). */
  async stop(signal: 'SIGTERM' | 'SIGKILL', timeoutMs = 60_000): Promise<Exit> {
    if (this.exited) return this.exited;
    this.child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((r) => (timer = setTimeout(() => r(null), timeoutMs)));
    const done = await Promise.race([this.exit, timeout]);
    clearTimeout(timer);
    if (done) return done;
    this.child.kill('SIGKILL');
    await this.exit;
    throw new Error(`liverec did not exit within ${timeoutMs} ms of ${signal}\nstderr: ${this.err.slice(-4000)}`);
  }
}
