import { rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { credentialsFile, saveCredentials } from './config.js';
import { CliError, Connection, DEFAULT_URL, resolveTarget } from './connection.js';
import { oauthLogin } from './oauth-login.js';
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
 * `tn login [--url URL]`: signs in through the server's OAuth authorization server (browser, loopback
 * redirect). `--token TOKEN` or `--token-stdin` instead checks a bearer token and keeps it. Either way the
 * secrets go to a 0600 file under the config dir and are never printed.
 */
export async function login(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { url: { type: 'string' }, token: { type: 'string' }, 'token-stdin': { type: 'boolean' }, 'no-browser': { type: 'boolean' } },
  });
  const url = (values.url ?? io.env.TN_URL ?? DEFAULT_URL).replace(/\/+$/, '').replace(/\/mcp$/, '');
  if (!values.token && !values['token-stdin']) {
    await oauthLogin(io, url, { browser: !values['no-browser'] });
    await check({ ...(await resolveTarget({ ...io.env, TN_TOKEN: undefined, TN_URL: url })) });
    io.out(`Signed in to ${url}; the tokens are kept in ${credentialsFile(io.env)} (readable by you only).\n`);
    return 0;
  }
  const token = values.token ?? (await readTokenFromStdin(io));
  if (!token) throw new CliError('No token given: tn login --token <token>, or pipe one to tn login --token-stdin.', 'USAGE', 2);
  await check({ url, token });
  const file = await saveCredentials(io.env, { url, token, savedAt: new Date().toISOString() });
  io.out(`Signed in to ${url}; the token is kept in ${file} (readable by you only).\n`);
  return 0;
}

/** A signed-in call: NOT_FOUND (no session yet) proves the credentials as well as an answer does. */
async function check(target: Parameters<typeof Connection.open>[0]): Promise<void> {
  const connection = await Connection.open(target);
  try {
    await connection.call('tn_session_resume', { recent: 0 }).catch((error) => {
      if (!(error instanceof CliError) || error.code !== 'NOT_FOUND') throw error;
    });
  } finally {
    await connection.close();
  }
}

export async function logout(_args: string[], io: Io): Promise<number> {
  await rm(credentialsFile(io.env), { force: true });
  io.out('Signed out: the stored credentials are deleted.\n');
  return 0;
}
