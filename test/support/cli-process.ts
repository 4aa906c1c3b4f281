import { spawn, type ChildProcess } from 'node:child_process';

export interface CliRun {
  child: ChildProcess;
  /** stdout as the chunks arrived, in order. */
  chunks: string[];
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (a signal counts as -1). */
  exited: Promise<number>;
  /** Resolves once stdout (or stderr) contains `text`; rejects after `timeoutMs`. */
  waitFor(text: string | RegExp, timeoutMs?: number, stream?: 'stdout' | 'stderr'): Promise<void>;
}

/** The real `tn` command as a user runs it: `node --import tsx bin/tn.ts …`, in its own process. */
export function runTn(args: string[], env: Record<string, string | undefined>, options: { stdin?: string } = {}): CliRun {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/tn.ts', ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    chunks.push(chunk);
    listeners.forEach((l) => l());
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
    listeners.forEach((l) => l());
  });
  child.stdin!.end(options.stdin ?? '');
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  const run: CliRun = {
    child,
    chunks,
    stdout: () => chunks.join(''),
    stderr: () => err,
    exited,
    waitFor(text, timeoutMs = 30_000, stream = 'stdout') {
      const found = () => {
        const haystack = stream === 'stdout' ? run.stdout() : err;
        return typeof text === 'string' ? haystack.includes(text) : text.test(haystack);
      };
      return new Promise((resolve, reject) => {
        if (found()) return resolve();
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`Timed out waiting for ${String(text)} on ${stream}.\nstdout: ${run.stdout()}\nstderr: ${err}`));
        }, timeoutMs);
        function check() {
          if (!found()) return;
          clearTimeout(timer);
          listeners.delete(check);
          resolve();
        }
        listeners.add(check);
        void exited.then(() => setTimeout(check, 0));
      });
    },
  };
  return run;
}

/** Runs `tn` to completion. */
export async function tn(args: string[], env: Record<string, string | undefined>, options: { stdin?: string } = {}): Promise<{ code: number; stdout: string; stderr: string; chunks: string[] }> {
  const run = runTn(args, env, options);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr(), chunks: run.chunks };
}
