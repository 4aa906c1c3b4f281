import type { FetchHandler } from '../functions/mcp/http/app.js';
import { webAppBundle, webSecurityHeaders } from '../web/build.js';

/**
 * Serves the student web app from the bundle built in this process (on the first page request, so a
 * server that only answers agents never builds it). Paths without a file are the app's deep links:
 * they get index.html and the app's router picks the page, as CloudFront's fallback does in AWS.
 */
export function webAppHandler(): FetchHandler {
  let headers: Record<string, string> | undefined;
  return async (request) => {
    const bundle = await webAppBundle();
    headers ??= webSecurityHeaders(new TextDecoder().decode(bundle.get('/index.html')!.body));
    const path = new URL(request.url).pathname;
    const asset = bundle.get(path) ?? (path.startsWith('/assets/') ? undefined : bundle.get('/index.html'));
    if (!asset) return new Response('not found', { status: 404, headers: { 'content-type': 'text/plain' } });
    return new Response(request.method === 'HEAD' ? null : (asset.body as Uint8Array<ArrayBuffer>), {
      headers: {
        ...headers,
        'content-type': asset.contentType,
        'cache-control': asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      },
    });
  };
}
