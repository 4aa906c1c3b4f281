import type { Env } from './config.js';

/** Where a command writes: stdout for results, stderr for status; colour only on a TTY without NO_COLOR. */
export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  colour: boolean;
  /** Progress spinners only where a person watches stderr. */
  interactive: boolean;
  env: Env;
}

export function processIo(env: Env): Io {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    colour: !noColor && Boolean(process.stdout.isTTY) && env.TERM !== 'dumb',
    interactive: Boolean(process.stderr.isTTY),
    env,
  };
}

const CODES = { bold: 1, dim: 2, red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36 } as const;
export type Style = keyof typeof CODES;

export function paint(io: Io, style: Style, text: string): string {
  return io.colour ? `\u001b[${CODES[style]}m${text}\u001b[0m` : text;
}

/** A plain-text table: a header row, a rule, and columns padded to their widest cell (cells cut at `maxWidth`). */
export function table(io: Io, headers: string[], rows: (string | number | null | undefined)[][], maxWidth = 60): string {
  const cells = rows.map((row) => row.map((cell) => cut(cell === null || cell === undefined ? '–' : String(cell), maxWidth)));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i]?.length ?? 0)));
  const line = (row: string[]) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd();
  const header = paint(io, 'bold', line(headers));
  return [header, widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n') + '\n';
}

function cut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function printJson(io: Io, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}

/** A spinner on stderr while a long call runs (nothing when stderr is not a terminal). */
export async function withProgress<T>(io: Io, label: string, work: () => Promise<T>): Promise<T> {
  if (!io.interactive) return work();
  const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
  let i = 0;
  const timer = setInterval(() => io.err(`\r${frames[i++ % frames.length]} ${label}`), 100);
  try {
    return await work();
  } finally {
    clearInterval(timer);
    io.err(`\r${' '.repeat(label.length + 2)}\r`);
  }
}

export function roleLabel(io: Io, role: string): string {
  return role === 'assistant' ? paint(io, 'cyan', 'tutor') : paint(io, 'green', role === 'user' ? 'you' : role);
}
