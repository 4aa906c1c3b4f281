/**
 * Where the authorization server may send a code: the connectors students use (Claude.ai and Claude
 * Code, ChatGPT, Cursor, VS Code, the MCP Inspector) and loopback clients on any port (RFC 8252 §7.3).
 * An operator adds more with TN_OAUTH_REDIRECT_URIS; `*` matches within one URL segment.
 */
const CONNECTOR_REDIRECT_URIS = [
  'https://claude.ai/api/mcp/auth_callback',
  'https://claude.com/api/mcp/auth_callback',
  'https://chatgpt.com/connector_platform_oauth_redirect',
  'https://chatgpt.com/aip/*/oauth/callback',
  'https://chat.openai.com/aip/*/oauth/callback',
  'https://vscode.dev/redirect',
  'https://insiders.vscode.dev/redirect',
  'cursor://anysphere.cursor-mcp/oauth/callback',
  'cursor://anysphere.cursor-retrieval/oauth/*/callback',
];

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

function redirectUriAllowed(uri: string, extra: string[] = []): boolean {
  const url = URL.parse(uri);
  if (!url || url.hash || url.username || url.password) return false;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return true;
  return [...CONNECTOR_REDIRECT_URIS, ...extra].some((pattern) => globToRegExp(pattern).test(uri));
}

/** A hosted connector's callback (not loopback, not the operator's extras): such a client can only send codes to that service. */
export function isConnectorCallback(uri: string): boolean {
  return CONNECTOR_REDIRECT_URIS.some((pattern) => globToRegExp(pattern).test(uri)) && URL.parse(uri)?.protocol === 'https:';
}

export function redirectUrisAllowed(uris: string[], extra: string[] = []): boolean {
  return uris.length > 0 && uris.every((uri) => redirectUriAllowed(uri, extra));
}

/** The same loopback redirect URI but for its port (RFC 8252 §7.3): scheme http, host, path and query equal. */
export function sameLoopbackExceptPort(requested: string, registered: string): boolean {
  const a = URL.parse(requested);
  const b = URL.parse(registered);
  if (!a || !b || a.protocol !== 'http:' || b.protocol !== 'http:' || !LOOPBACK_HOSTS.has(a.hostname) || a.hostname !== b.hostname) return false;
  if (a.username || a.password || a.hash) return false;
  return a.pathname === b.pathname && a.search === b.search;
}

function globToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/?#]+');
  return new RegExp(`^${escaped}$`);
}
