import type { McpUiHostContext, McpUiInitializeResult } from '@modelcontextprotocol/ext-apps';

/**
 * The view's side of the MCP Apps protocol (SEP-1865): JSON-RPC 2.0 over postMessage with the host.
 * Written against the spec rather than bundling the SDK's App class, which brings the MCP client and
 * zod (about 660 KB minified) into every view and probes `new Function` (a CSP violation under the
 * spec's default policy); the browser tests drive these views with the SDK's own AppBridge.
 */

export const PROTOCOL_VERSION = '2026-01-26';

export interface ToolResult {
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

type Handler = (params: Record<string, unknown>) => void;

interface Message {
  jsonrpc?: string;
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string };
}

/** A tools/call the host did not answer in this long is given up (the view says so). */
const REQUEST_TIMEOUT_MS = 120_000;

export class HostBridge {
  private nextId = 1;
  private readonly pending = new Map<string | number, { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: ReturnType<typeof setTimeout> }>();
  private readonly handlers = new Map<string, Handler>();
  /** Notifications that arrived before their handler (a host may send the result right after initialize). */
  private readonly early: Message[] = [];

  constructor(private readonly host: Window = window.parent) {
    window.addEventListener('message', (event) => {
      // Only the frame that embeds us speaks for the host (a sandbox proxy relays for web hosts).
      if (event.source !== this.host) return;
      this.receive(event.data as Message);
    });
  }

  /** ui/initialize, then ui/notifications/initialized: the host sends nothing before it. */
  async connect(appInfo: { name: string; version: string }): Promise<McpUiInitializeResult> {
    const result = await this.request<McpUiInitializeResult>('ui/initialize', {
      appInfo,
      appCapabilities: { availableDisplayModes: ['inline'] },
      protocolVersion: PROTOCOL_VERSION,
    });
    this.notify('ui/notifications/initialized', {});
    return result;
  }

  request<T>(method: string, params: Record<string, unknown>): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method}: the host did not answer`));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      this.host.postMessage({ jsonrpc: '2.0', id, method, params }, '*');
    });
  }

  notify(method: string, params: Record<string, unknown>): void {
    this.host.postMessage({ jsonrpc: '2.0', method, params }, '*');
  }

  on(method: string, handler: Handler): void {
    this.handlers.set(method, handler);
    for (const message of this.early.filter((m) => m.method === method)) handler(message.params ?? {});
    this.early.splice(0, this.early.length, ...this.early.filter((m) => m.method !== method));
  }

  private receive(message: Message): void {
    if (!message || message.jsonrpc !== '2.0') return;
    if (message.method === undefined && message.id !== undefined) {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      clearTimeout(waiting.timer);
      if (message.error) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result);
      return;
    }
    if (message.method === undefined) return;
    if (message.id !== undefined) {
      this.answer(message);
      return;
    }
    const handler = this.handlers.get(message.method);
    if (handler) handler(message.params ?? {});
    else this.early.push(message);
  }

  /** Requests from the host: a ping, and the teardown a host announces (nothing of ours needs saving). */
  private answer(message: Message): void {
    const reply = (body: Record<string, unknown>) => this.host.postMessage({ jsonrpc: '2.0', id: message.id, ...body }, '*');
    if (message.method === 'ping' || message.method === 'ui/resource-teardown') reply({ result: {} });
    else reply({ error: { code: -32601, message: `Method not found: ${message.method}` } });
  }
}

/** Sends ui/notifications/size-changed whenever the rendered page changes size (hosts size the frame to it). */
export function reportSize(bridge: HostBridge): void {
  let scheduled = false;
  let last = { width: 0, height: 0 };
  const measure = () => {
    scheduled = false;
    const root = document.documentElement;
    // The content's own height, not the frame's: let the root size to its content while measuring.
    const previous = root.style.height;
    root.style.height = 'max-content';
    const height = Math.ceil(root.getBoundingClientRect().height);
    root.style.height = previous;
    const width = Math.ceil(window.innerWidth);
    if (width === last.width && height === last.height) return;
    last = { width, height };
    bridge.notify('ui/notifications/size-changed', { width, height });
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(measure);
  };
  const observer = new ResizeObserver(schedule);
  observer.observe(document.documentElement);
  observer.observe(document.body);
  schedule();
}

/**
 * The host's theme and style variables (spec "Theming"): the theme sets the color scheme the views'
 * light-dark() fallbacks follow, and each variable the host gives overrides the view's own default.
 * Host font CSS is not applied: its URLs are origins the view's CSP does not allow.
 */
export function applyHostContext(context: McpUiHostContext): void {
  const root = document.documentElement;
  if (context.theme) {
    root.dataset.theme = context.theme;
    root.style.colorScheme = context.theme;
  }
  for (const [name, value] of Object.entries(context.styles?.variables ?? {})) {
    if (name.startsWith('--') && typeof value === 'string' && value) root.style.setProperty(name, value);
  }
  const insets = context.safeAreaInsets;
  if (insets) root.style.padding = `${insets.top}px ${insets.right}px ${insets.bottom}px ${insets.left}px`;
}
