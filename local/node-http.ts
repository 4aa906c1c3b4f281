import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { FetchHandler } from '../functions/shared/http/app.js';
import { bytesOf } from '../functions/shared/http/bytes-response.js';
import { logger } from '../functions/shared/observability.js';

/** Serves a web-standard fetch handler on node:http, streaming response bodies (SSE) as they are produced. */
export function createNodeServer(handler: FetchHandler): Server {
  return createServer((req, res) => {
    serve(handler, req, res).catch((error: unknown) => {
      logger.error('local server failed to answer', { error: error instanceof Error ? error.message : String(error) });
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'INTERNAL_ERROR', message: 'The server failed to complete the request.', requestId: 'local' }));
    });
  });
}

async function serve(handler: FetchHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  const host = req.headers.host ?? 'localhost';
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(`http://${host}${req.url ?? '/'}`, {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
    signal: abort.signal,
    ...(hasBody ? { duplex: 'half' } : {}),
  } as RequestInit);

  const response = await handler(request);
  const outHeaders: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    outHeaders[name] = name === 'set-cookie' ? response.headers.getSetCookie() : value;
  });
  // A request body left unread (refused early: too large, unauthenticated) cannot be skipped on a
  // kept-alive socket: close it after this answer, so the client's next request opens a new one.
  if (hasBody && !req.complete) outHeaders.connection = 'close';
  if (!response.body) {
    res.writeHead(response.status, outHeaders);
    res.end();
    return;
  }
  // A complete answer (JSON, HTML) goes out in one write; only event streams are piped as produced.
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    const known = bytesOf(response);
    const bytes = known ? Buffer.from(known.buffer, known.byteOffset, known.byteLength) : Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, { ...outHeaders, 'content-length': String(bytes.length) });
    res.end(bytes);
    return;
  }
  res.writeHead(response.status, outHeaders);
  const body = Readable.fromWeb(response.body as WebReadableStream);
  body.on('error', () => res.destroy());
  abort.signal.addEventListener('abort', () => body.destroy(), { once: true });
  body.pipe(res);
}
