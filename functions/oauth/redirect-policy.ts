/**
 * Where the authorization server may send a code: the connectors students use (Claude.ai and Claude
 * Code, ChatGPT, Cursor, VS Code, the MCP Inspector) and loopback clients on any port (RFC 8252 §7.3).
 * An operator adds more with TN_OAUTH_REDIRECT_URIS; `*` matches within one URL segment.
 */
export const CONNECTOR_REDIRECT_URIS = [
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

export function redirectUriAllowed(uri: string, extra: string[] = []): boolean {
  const url = URL.parse(uri);
  if (!url || url.hash || url.username || url.password) return false;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return true;
  return [...CONNECTOR_REDIRECT_URIS, ...extra].some((pattern) => globToRegExp(pattern).test(uri));
}

export function redirectUrisAllowed(uris: string[], extra: string[] = []): boolean {
  return uris.length > 0 && uris.every((uri) => redirectUriAllowed(uri, extra));
}

function globToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/?#]+');
  return new RegExp(`^${escaped}$`);
}
