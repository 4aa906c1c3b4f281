// Runs in Chromium: a chat host's side of MCP Apps, built on the SDK's own AppBridge (bundled by view-host.ts).
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps';

interface Mount {
  /** Where the view's page is served (another origin than this page's, as a host's sandbox is). */
  src: string;
  toolInput: Record<string, unknown>;
  toolResult: Record<string, unknown>;
  hostContext: McpUiHostContext;
}

declare global {
  interface Window {
    /** Bound by the test to its MCP client: the host forwards the view's tools/call to the server. */
    hostCallTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<Record<string, unknown>>;
    hostLog: { opened: string[]; contexts: unknown[]; sizes: { width?: number; height?: number }[]; toolCalls: string[] };
    mountView(mount: Mount): Promise<void>;
    setHostTheme(context: McpUiHostContext): Promise<void>;
    /** Passes the view another tool result, as a host may for a tool the view called itself. */
    sendToolResult(result: Record<string, unknown>): Promise<void>;
  }
}

let bridge: AppBridge | undefined;
window.hostLog = { opened: [], contexts: [], sizes: [], toolCalls: [] };

window.mountView = async ({ src, toolInput, toolResult, hostContext }) => {
  const frame = document.createElement('iframe');
  // The sandbox a web host gives its view proxy: scripts, on the view's own origin.
  frame.sandbox.add('allow-scripts', 'allow-same-origin');
  frame.title = 'Tool result view';
  const maxHeight = (hostContext.containerDimensions as { maxHeight?: number } | undefined)?.maxHeight ?? 600;
  frame.style.cssText = `width:100%;height:120px;border:1px solid #8888;border-radius:8px;display:block`;
  document.getElementById('chat')!.append(frame);

  bridge = new AppBridge(null, { name: 'tutor-nexus-test-host', version: '1.0.0' }, { serverTools: {}, openLinks: {}, updateModelContext: { text: {} } }, { hostContext });
  bridge.oncalltool = async (params) => {
    window.hostLog.toolCalls.push(params.name);
    return (await window.hostCallTool(params)) as never;
  };
  bridge.onopenlink = async ({ url }) => {
    window.hostLog.opened.push(url);
    return {};
  };
  bridge.onupdatemodelcontext = async (params) => {
    window.hostLog.contexts.push(params);
    return {};
  };
  bridge.onsizechange = ({ width, height }) => {
    window.hostLog.sizes.push({ width, height });
    if (height !== undefined) frame.style.height = `${Math.min(height, maxHeight)}px`;
  };
  const initialized = new Promise<void>((resolve) => (bridge!.oninitialized = () => resolve()));
  frame.src = src;
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  await initialized;
  await bridge.sendToolInput({ arguments: toolInput });
  await bridge.sendToolResult(toolResult as never);
};

window.setHostTheme = async (context) => {
  document.documentElement.style.colorScheme = context.theme ?? 'light';
  document.body.style.background = context.theme === 'dark' ? '#1a1b1e' : '#ffffff';
  await bridge!.sendHostContextChange(context);
};

window.sendToolResult = (result) => bridge!.sendToolResult(result as never);
