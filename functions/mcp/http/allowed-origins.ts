import type { AppConfig } from '../../platform/config.js';

/** The names a loopback origin carries (local tools such as the MCP Inspector), IPv6 in brackets as URL hostnames are. */
const LOOPBACK_HOSTNAMES = ['localhost', '127.0.0.1', '[::1]'] as const;

/**
 * Browsers may call the deployment from its own origin and from local tools (the Inspector on
 * localhost), plus TN_ALLOWED_HOSTS; requests without an Origin (agents, connectors) are not browsers.
 */
export function allowedOriginHostnames(config: AppConfig): string[] {
  const own = config.publicBaseUrl ? [new URL(config.publicBaseUrl).hostname] : [];
  return [...own, ...LOOPBACK_HOSTNAMES, ...config.allowedHosts];
}
