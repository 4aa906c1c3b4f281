import { render, type ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { McpUiHostCapabilities, McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import { applyHostContext, HostBridge, reportSize, type ToolResult } from './host-bridge.js';
import './view.css';

/** What a view may ask of the host, each only where the host said it can. */
export interface ViewHost {
  /** The host proxies tools/call to this server. */
  canCallTools: boolean;
  /** Runs one of this server's tools (unprefixed name, e.g. `course_prereqs`); resolves to its output or rejects with its message. */
  callTool<T>(name: string, args: Record<string, unknown>): Promise<T>;
  canOpenLinks: boolean;
  /** Opens a page in the person's browser (ui/open-link). */
  openLink(url: string): void;
  /** Tells the model, for its next turn, what the student is looking at now (ui/update-model-context). */
  updateContext(text: string): void;
}

export interface ViewProps<R, I> {
  result: R;
  /** The tool's arguments, when the host sent them. */
  input: Partial<I>;
  host: ViewHost;
}

type State<R> =
  | { kind: 'waiting' }
  | { kind: 'ready'; result: R }
  | { kind: 'failed'; message: string };

/** A tool's output: its structuredContent, or the JSON its text carries for hosts that pass only content. */
export function outputOf(result: ToolResult): unknown {
  if (result.structuredContent) return result.structuredContent;
  const text = result.content?.find((block) => block.type === 'text')?.text;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function errorMessageOf(result: ToolResult): string {
  const error = (result._meta?.error ?? outputOf(result)) as { message?: string } | undefined;
  return error?.message ?? result.content?.find((block) => block.type === 'text')?.text ?? 'The tool failed.';
}

/** The served tool prefix: the server writes it into the page; else the name of the tool that opened the view. */
function toolPrefix(context: McpUiHostContext | undefined, ownTool: string): string {
  const written = document.querySelector<HTMLMetaElement>('meta[name="tn-tool-prefix"]')?.content;
  if (written !== undefined) return written;
  const served = context?.toolInfo?.tool.name;
  return served?.endsWith(ownTool) ? served.slice(0, -ownTool.length) : 'tn_';
}

/**
 * Mounts a view: connects to the host, follows its theme, reports the page's size, and renders the
 * view with the tool result the host passes (ui/notifications/tool-result).
 */
export function mountView<R, I>(
  View: ComponentType<ViewProps<R, I>>,
  options: {
    name: string;
    tool: string;
    waiting: string;
    /** Whether an output is this tool's: a host may also pass the results of tools the view called itself, which are not. */
    accepts: (output: Record<string, unknown>) => boolean;
  },
): void {
  const bridge = new HostBridge();
  const root = document.getElementById('root')!;

  function Shell() {
    const [state, setState] = useState<State<R>>({ kind: 'waiting' });
    const [input, setInput] = useState<Partial<I>>({});
    const [host, setHost] = useState<ViewHost | undefined>();

    useEffect(() => {
      bridge.on('ui/notifications/tool-input', (params) => setInput((params.arguments ?? {}) as Partial<I>));
      bridge.on('ui/notifications/tool-result', (params) => {
        const result = params as ToolResult;
        const output = outputOf(result);
        const ours = !result.isError && typeof output === 'object' && output !== null && options.accepts(output as Record<string, unknown>);
        // Once the view shows its result, only another result of its own tool replaces it.
        setState((shown) => (ours ? { kind: 'ready', result: output as R } : shown.kind === 'ready' ? shown : { kind: 'failed', message: result.isError ? errorMessageOf(result) : 'The host passed a result this view cannot show.' }));
      });
      bridge.on('ui/notifications/tool-cancelled', (params) => setState({ kind: 'failed', message: `Cancelled${params.reason ? `: ${String(params.reason)}` : '.'}` }));
      bridge.on('ui/notifications/host-context-changed', (params) => applyHostContext(params as McpUiHostContext));
      bridge.connect({ name: `tutor-nexus-${options.name}`, version: '1' }).then(
        (init) => {
          applyHostContext(init.hostContext ?? {});
          setHost(hostOf(bridge, init.hostCapabilities ?? {}, toolPrefix(init.hostContext, options.tool)));
          // Sizes follow the handshake: a host hears nothing from a view before it is initialized.
          reportSize(bridge);
        },
        (error: Error) => setState({ kind: 'failed', message: `The host did not connect: ${error.message}` }),
      );
    }, []);

    if (state.kind === 'failed') {
      return (
        <p class="notice bad" role="alert">
          {state.message}
        </p>
      );
    }
    if (state.kind === 'waiting' || !host) {
      return (
        <p class="notice muted" role="status">
          {options.waiting}
        </p>
      );
    }
    return <View result={state.result} input={input} host={host} />;
  }

  render(<Shell />, root);
}

function hostOf(bridge: HostBridge, capabilities: McpUiHostCapabilities, prefix: string): ViewHost {
  return {
    canCallTools: Boolean(capabilities.serverTools),
    async callTool<T>(name: string, args: Record<string, unknown>) {
      const result = await bridge.request<ToolResult>('tools/call', { name: `${prefix}${name}`, arguments: args });
      if (result.isError) throw new Error(errorMessageOf(result));
      return outputOf(result) as T;
    },
    canOpenLinks: Boolean(capabilities.openLinks),
    openLink(url) {
      bridge.request('ui/open-link', { url }).catch(() => undefined); // a refused link stays where it is
    },
    updateContext(text) {
      if (!capabilities.updateModelContext) return;
      bridge.request('ui/update-model-context', { content: [{ type: 'text', text }] }).catch(() => undefined);
    },
  };
}
