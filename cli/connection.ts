import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { readCredentials, type Env } from './config.js';
import { savedAuthProvider } from './oauth-login.js';

/** A failure the CLI reports as one line on stderr: the server's ErrorResponse code and message, or why it could not be reached. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly exitCode = 1,
    readonly unreachable = false,
  ) {
    super(message);
  }
}

export interface Target {
  url: string;
  token: string | undefined;
  /** The server's tool name prefix (TN_TOOL_PREFIX, default tn_): the CLI names tools tn_… and swaps it. */
  prefix?: string;
  /** An OAuth sign-in saved by `tn login` (used when no bearer token is set). */
  authProvider?: Awaited<ReturnType<typeof savedAuthProvider>>;
}

export const DEFAULT_URL = 'http://127.0.0.1:8787';

/** TN_URL and TN_TOKEN win; else what `tn login` saved; else the local server without a token. */
export async function resolveTarget(env: Env): Promise<Target> {
  const saved = await readCredentials(env);
  const url = (env.TN_URL || saved?.url || DEFAULT_URL).replace(/\/+$/, '').replace(/\/mcp$/, '');
  const token = env.TN_TOKEN || saved?.token || undefined;
  return { url, token, prefix: env.TN_TOOL_PREFIX, authProvider: token ? undefined : await savedAuthProvider(env, url) };
}

export interface ToolOptions {
  /** Each progress message (a piece of the tutor's answer) as it arrives. */
  onProgress?: (message: string) => void;
}

/** The MCP connection one command uses: every tool call goes through the SDK client, like any other host. */
export class Connection {
  private constructor(
    private readonly client: Client,
    readonly target: Target,
  ) {}

  static async open(target: Target): Promise<Connection> {
    const client = new Client({ name: 'tutor-nexus-cli', version: '0.1.0' }, { versionNegotiation: { mode: 'auto' } });
    const transport = new StreamableHTTPClientTransport(new URL(`${target.url}/mcp`), {
      requestInit: target.token ? { headers: { authorization: `Bearer ${target.token}` } } : undefined,
      // The SDK adds the access token and refreshes it (saving the rotated refresh token) when it expires.
      authProvider: target.token ? undefined : target.authProvider,
    });
    try {
      await client.connect(transport);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw asCliError(error, target);
    }
    return new Connection(client, target);
  }

  async call<T = Record<string, unknown>>(name: string, args: Record<string, unknown>, options: ToolOptions = {}): Promise<T> {
    let result;
    try {
      result = await this.client.callTool(
        { name: this.target.prefix ? name.replace(/^tn_/, this.target.prefix) : name, arguments: args },
        options.onProgress
          ? { onprogress: (update) => update.message && options.onProgress!(update.message), resetTimeoutOnProgress: true, timeout: 120_000, maxTotalTimeout: 600_000 }
          : { timeout: 120_000 },
      );
    } catch (error) {
      throw asCliError(error, this.target);
    }
    if (result.isError) throw errorFromResult(result.content as { type: string; text?: string }[]);
    return (result.structuredContent ?? {}) as T;
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
  }
}

function errorFromResult(content: { type: string; text?: string }[]): CliError {
  const text = content.find((c) => c.type === 'text')?.text ?? '';
  try {
    const error = JSON.parse(text) as { code?: string; message?: string; details?: { retryAfter?: number; hints?: string[] } };
    const retry = error.details?.retryAfter ? ` (retry after ${error.details.retryAfter} s)` : '';
    return new CliError(`${error.message ?? 'The server refused the call.'}${retry}`, error.code ?? 'ERROR');
  } catch {
    return new CliError(text || 'The server refused the call.', 'ERROR');
  }
}

/** Network failures say which server could not be reached; HTTP refusals name their status; nothing shows a stack. */
function asCliError(error: unknown, target: Target): CliError {
  if (error instanceof CliError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const causes: Error[] = [];
  for (let e: unknown = error; e instanceof Error && causes.length < 6; e = e.cause) causes.push(e);
  const cause = causes.length > 1 ? causes.at(-1) : undefined;
  // A system error (it names its syscall) says best why: ECONNREFUSED, ENOTFOUND, …
  const causeCode = (causes.find((e) => (e as NodeJS.ErrnoException).syscall) as NodeJS.ErrnoException | undefined)?.code;
  if (/fetch failed|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|socket|terminated|other side closed/i.test(`${message} ${cause?.message ?? ''}`) || causeCode) {
    return new CliError(`Cannot reach ${target.url} (${causeCode ?? cause?.message ?? message}).`, 'UNREACHABLE', 1, true);
  }
  if (/\b401\b|unauthori[sz]ed/i.test(message) || error?.constructor?.name === 'UnauthorizedError') {
    return new CliError(
      target.token || target.authProvider ? 'The server refused the token (expired or revoked); run `tn login` again or set TN_TOKEN.' : 'Sign in first: `tn login` or set TN_TOKEN.',
      'UNAUTHORIZED',
    );
  }
  if (/\b403\b|insufficient_scope/i.test(message)) return new CliError('The token does not allow this call.', 'FORBIDDEN');
  if (/timed? ?out/i.test(message)) return new CliError(`The server did not answer in time (${message}).`, 'TIMEOUT', 1, true);
  return new CliError(message.split('\n')[0]!, 'ERROR');
}

/** Opens a connection, runs `work`, and closes it whatever happens. */
export async function withConnection<T>(env: Env, work: (connection: Connection) => Promise<T>): Promise<T> {
  const connection = await Connection.open(await resolveTarget(env));
  try {
    return await work(connection);
  } finally {
    await connection.close();
  }
}
