import { execFileSync, spawn, type ChildProcess } from 'node:child_process';

/** Every process below `root`, from `ps` (the server, DynamoDB Local's Java). */
export function descendantsOf(root: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const queue = [root];
  while (queue.length) {
    const parent = queue.shift()!;
    for (const [pid, ppid] of rows) {
      if (ppid === parent) {
        found.push(pid);
        queue.push(pid);
      }
    }
  }
  return found;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function commandOf(pid: number): string {
  try {
    return execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

/** Java processes anywhere on the machine whose command line names this database directory. */
export function emulatorsOn(dbDir: string): number[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .flatMap((line) => {
      const match = /^\s*(\d+)\s+(.*)$/.exec(line);
      return match && match[2]!.startsWith('java') && match[2]!.includes(dbDir) ? [Number(match[1])] : [];
    });
}

export async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return condition();
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  /** The DynamoDB Local JVM the server started. */
  jvm(): number | undefined;
  exited: Promise<number | null>;
  /** SIGKILL for the server and everything it started, whatever state they are in. */
  kill(): void;
}

/** The local server as `npm start` runs it (`node bin/local-server.mjs`), until its banner. */
export async function startServerProcess(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['bin/local-server.mjs'], {
    env: { ...process.env, PORT: '0', TN_DATA_DIR: dataDir, TN_DYNAMODB_ENDPOINT: '', TN_LOG_LEVEL: 'ERROR', TN_SAMPLE_CATALOG: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (data) => (output += data));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const started: number[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner:\n${output}`)), 90_000);
    child.stdout!.on('data', (data) => {
      output += data;
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match && output.includes('Press Ctrl-C')) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}:\n${output}`));
    });
  });
  const jvm = () => {
    const found = descendantsOf(child.pid!).find((pid) => commandOf(pid).startsWith('java'));
    if (found) started.push(found);
    return found;
  };
  jvm();
  return {
    child,
    url,
    output: () => output,
    jvm,
    exited,
    kill() {
      for (const pid of [child.pid!, ...descendantsOf(child.pid!), ...started]) if (alive(pid)) process.kill(pid, 'SIGKILL');
    },
  };
}
