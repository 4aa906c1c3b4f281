import { rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { credentialsFile, saveCredentials } from './config.js';
import { CliError, Connection, DEFAULT_URL } from './connection.js';
import type { Io } from './output.js';

async function readTokenFromStdin(io: Io): Promise<string> {
  if (process.stdin.isTTY) io.err('Paste an access token (the one `npm start` prints, or a personal access token) and press Enter: ');
  const lines = createInterface({ input: process.stdin, terminal: false });
  for await (const line of lines) {
    lines.close();
    return line.trim();
  }
  return '';
}

/**
 * `tn login [--url URL] [--token TOKEN]`: checks the token against the server and keeps it in a 0600
 * file under the config dir. Without --token it reads one line from stdin (so it stays out of `ps`).
 */
export async function login(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({ args, options: { url: { type: 'string' }, token: { type: 'string' } } });
  const url = (values.url ?? io.env.TN_URL ?? DEFAULT_URL).replace(/\/+$/, '').replace(/\/mcp$/, '');
  const token = values.token ?? (await readTokenFromStdin(io));
  if (!token) throw new CliError('No token given: tn login --token <token>, or pipe one on stdin.', 'USAGE', 2);
  const connection = await Connection.open({ url, token });
  try {
    // A signed-in call: NOT_FOUND (no session yet) proves the token as well as an answer does.
    await connection.call('tn_session_resume', { recent: 0 }).catch((error) => {
      if (!(error instanceof CliError) || error.code !== 'NOT_FOUND') throw error;
    });
  } finally {
    await connection.close();
  }
  const file = await saveCredentials(io.env, { url, token, savedAt: new Date().toISOString() });
  io.out(`Signed in to ${url}; the token is kept in ${file} (readable by you only).\n`);
  return 0;
}

export async function logout(_args: string[], io: Io): Promise<number> {
  await rm(credentialsFile(io.env), { force: true });
  io.out('Signed out: the stored token is deleted.\n');
  return 0;
}
