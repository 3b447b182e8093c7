import { spawn, type ChildProcess } from 'node:child_process';

export interface ReadyChild {
  process: ChildProcess;
  /** Settles when the child prints `ready`; rejects if it exits first. */
  ready: Promise<void>;
  /** Everything it printed, once it has exited. */
  output: Promise<string>;
  exited: Promise<number | null>;
  /** What it has printed on stdout so far. */
  stdout(): string;
}

/** A bundled test child (the crash tests' hosts) with its environment, watched for `ready`. */
export function startReadyChild(file: string, env: Record<string, string>): ReadyChild {
  const child = spawn(process.execPath, [file], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('ready')) resolve();
    });
    void exited.then((code) => reject(new Error(`child exited (${code}) before it was ready: ${stderr.slice(-2000)}`)));
  });
  ready.catch(() => {});
  const output = exited.then(() => stdout + stderr);
  return { process: child, ready, output, exited, stdout: () => stdout };
}
