import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { FetchHandler } from '../functions/mcp/http/app.js';
import { bytesOf } from '../functions/mcp/http/bytes-response.js';
import { withClientAddress } from '../functions/mcp/http/client-address.js';
import { logger } from '../functions/platform/observability.js';

/**
 * A refused body (too large) is read on and thrown away, up to this much, so the client finishes
 * sending and reads the refusal: a socket closed under a client still writing resets, and the client
 * sees EPIPE or "other side closed" instead of the 413. Beyond it the connection is cut (the answer has
 * gone out long before).
 */
const DISCARD_MAX_BYTES = 64 * 1024 * 1024;
const DISCARD_MAX_MS = 15_000;
/** Between finishing our side of a cut connection and closing it: time for the client to read the answer. */
const CUT_GRACE_MS = 2_000;

const REQUESTS_SEEN = Symbol('requests seen on this socket');
type CountedSocket = Socket & { [REQUESTS_SEEN]?: number };

/** Serves a web-standard fetch handler on node:http, streaming response bodies (SSE) as they are produced. */
export function createNodeServer(handler: FetchHandler): Server {
  const server = createServer((req, res) => {
    serve(handler, req, res).catch((error: unknown) => {
      logger.error('local server failed to answer', { error: error instanceof Error ? error.message : String(error) });
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'INTERNAL_ERROR', message: 'The server failed to complete the request.', requestId: 'local' }));
    });
  });
  spareQueuedRequestsAtKeepAliveTimeout(server);
  return server;
}

/**
 * Node closes an idle kept-alive connection when its keep-alive timer fires. When the event loop was
 * busy past that moment (a long synchronous step, a loaded machine), the timer runs before the loop
 * reads the next request that already arrived on the socket, and a client that sent it in time is
 * reset ("other side closed"). With a listener on the server's 'timeout', Node leaves the decision to
 * us: close on the next turn, after the loop has read what is waiting, unless a request came in.
 */
function spareQueuedRequestsAtKeepAliveTimeout(server: Server): void {
  server.on('request', (req: IncomingMessage) => {
    const socket = req.socket as CountedSocket;
    socket[REQUESTS_SEEN] = (socket[REQUESTS_SEEN] ?? 0) + 1;
  });
  server.on('timeout', (socket: CountedSocket) => {
    const seen = socket[REQUESTS_SEEN];
    setImmediate(() => {
      if (socket[REQUESTS_SEEN] === seen) socket.destroy();
    });
  });
}

/**
 * The request body as a web stream. Unlike Readable.toWeb, a reader that gives up (a body over the
 * limit) does not destroy the socket: the rest is discarded as it arrives (see DISCARD_MAX_BYTES).
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let open = true;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on('data', (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.once('end', () => {
        if (open) controller.close();
        open = false;
      });
      req.once('error', (error) => {
        if (open) controller.error(error);
        open = false;
      });
    },
    pull() {
      req.resume();
    },
    cancel() {
      open = false;
      req.removeAllListeners('data');
      discardRest(req);
    },
  });
}

const discarding = new WeakSet<IncomingMessage>();

function discardRest(req: IncomingMessage): void {
  discarding.add(req);
  let discarded = 0;
  // Past the bound: stop reading (the client's writes back up rather than fail), finish our side so the
  // client reads the answer to its end, and close the connection a moment later.
  const cut = () => {
    clearTimeout(timer);
    req.pause();
    req.removeAllListeners('data');
    req.socket.end();
    setTimeout(() => req.socket.destroy(), CUT_GRACE_MS).unref();
  };
  const timer = setTimeout(cut, DISCARD_MAX_MS);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.byteLength;
    if (discarded > DISCARD_MAX_BYTES) cut();
  });
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
  req.resume();
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
  const request = withClientAddress(
    new Request(`http://${host}${req.url ?? '/'}`, {
      method: req.method,
      headers,
      body: hasBody ? bodyStream(req) : undefined,
      signal: abort.signal,
      ...(hasBody ? { duplex: 'half' } : {}),
    } as RequestInit),
    req.socket.remoteAddress,
  );

  const response = await handler(request);
  const outHeaders: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    outHeaders[name] = name === 'set-cookie' ? response.headers.getSetCookie() : value;
  });
  // Answered before its body arrived (too large, unauthenticated): the rest is discarded as it comes, so
  // the client reads this answer (and may reuse the connection) rather than a reset.
  if (hasBody && !req.complete && !discarding.has(req)) {
    req.removeAllListeners('data');
    discardRest(req);
  }
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
