import type { ComponentChildren, JSX } from 'preact';
import type { Definition, Nodes, Parents, PhrasingContent, Root, RootContent, TableCell } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmAutolinkLiteralFromMarkdown } from 'mdast-util-gfm-autolink-literal';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item';
import { mathFromMarkdown } from 'mdast-util-math';
import { gfmAutolinkLiteral } from 'micromark-extension-gfm-autolink-literal';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
import { math } from 'micromark-extension-math';
import { Tex } from './tex.js';

/**
 * The tutor's answers are Markdown written by a language model, which anyone's prompt can steer: they
 * are parsed into a syntax tree (micromark, CommonMark with GitHub's tables, strikethrough, task lists
 * and bare links, plus $math$) and the tree becomes Preact elements, one known element per node kind.
 * No HTML string is ever built or parsed: HTML in an answer is shown as the text it is, links go only to
 * http(s) and mailto, images are offered as links rather than loaded.
 */

function parseMarkdown(text: string): Root {
  return fromMarkdown(withDollarMath(text), {
    extensions: [gfmTable(), gfmStrikethrough({ singleTilde: false }), gfmTaskListItem(), gfmAutolinkLiteral(), math()],
    mdastExtensions: [gfmTableFromMarkdown(), gfmStrikethroughFromMarkdown(), gfmTaskListItemFromMarkdown(), gfmAutolinkLiteralFromMarkdown(), mathFromMarkdown()],
  });
}

/**
 * Models often write LaTeX's own delimiters, \( \) and \[ \], which Markdown reads as escaped brackets:
 * outside code, they become the $ and $$ the math extension knows.
 */
function withDollarMath(text: string): string {
  return text
    .split(/(^ {0,3}(?:```|~~~)[\s\S]*?(?:^ {0,3}(?:```|~~~)[^\n]*$|(?![\s\S])))/m)
    .map((part, i) =>
      i % 2
        ? part
        : part
            .split(/(`+[^`]*`+)/)
            .map((piece, j) => (j % 2 ? piece : piece.replace(/\\\[([\s\S]+?)\\\]/g, (_, tex: string) => `\n$$\n${tex.trim()}\n$$\n`).replace(/\\\(([\s\S]+?)\\\)/g, (_, tex: string) => `$${tex.trim()}$`)))
            .join(''),
    )
    .join('');
}

/** Where a link may go: the web, or an email. Everything else (javascript:, data:, relative paths) is text. */
export function safeHref(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' || parsed.protocol === 'mailto:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

interface Context {
  definitions: Map<string, Definition>;
  /** Headings inside an answer start below the page's own (the chat's h2). */
  headingBase: number;
}

export function Markdown({ text, headingBase = 3 }: { text: string; headingBase?: number }) {
  const tree = parseMarkdown(text);
  const definitions = new Map<string, Definition>();
  collectDefinitions(tree, definitions);
  return <div class="markdown">{children(tree, { definitions, headingBase })}</div>;
}

function collectDefinitions(node: Nodes, into: Map<string, Definition>): void {
  if (node.type === 'definition') into.set(node.identifier, node);
  if ('children' in node) for (const child of node.children) collectDefinitions(child, into);
}

function children(parent: Parents, ctx: Context): ComponentChildren[] {
  const nodes = parent.children as (RootContent | PhrasingContent)[];
  return nodes.map((node, i) => element(node, ctx, i, nodes[i + 1]));
}

function element(node: RootContent, ctx: Context, key: number, next?: RootContent): ComponentChildren {
  switch (node.type) {
    case 'text':
      return node.value;
    case 'paragraph':
      return <p key={key}>{children(node, ctx)}</p>;
    case 'heading': {
      const Tag = `h${Math.min(6, node.depth - 1 + ctx.headingBase)}` as 'h3';
      return <Tag key={key}>{children(node, ctx)}</Tag>;
    }
    case 'emphasis':
      return <em key={key}>{children(node, ctx)}</em>;
    case 'strong':
      return <strong key={key}>{children(node, ctx)}</strong>;
    case 'delete':
      return <del key={key}>{children(node, ctx)}</del>;
    case 'inlineCode':
      return <code key={key}>{node.value}</code>;
    case 'break':
      return <br key={key} />;
    case 'thematicBreak':
      return <hr key={key} />;
    case 'blockquote':
      return <blockquote key={key}>{children(node, ctx)}</blockquote>;
    case 'list': {
      const items = children(node, ctx);
      return node.ordered ? (
        <ol key={key} start={node.start ?? undefined}>
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      );
    }
    case 'listItem': {
      // Tight lists hold their text in paragraphs too: unwrapped, so items are not spaced like paragraphs.
      const content = node.spread ? children(node, ctx) : node.children.flatMap((child, i) => (child.type === 'paragraph' ? children(child, ctx) : [element(child, ctx, i)]));
      if (typeof node.checked !== 'boolean') return <li key={key}>{content}</li>;
      return (
        <li key={key} class="task">
          <span aria-hidden="true">{node.checked ? '☑ ' : '☐ '}</span>
          <span class="visually-hidden">{node.checked ? 'Done: ' : 'To do: '}</span>
          {content}
        </li>
      );
    }
    case 'code':
      return (
        // Long lines scroll inside the block, which the keyboard can reach.
        <pre key={key} tabIndex={0} role="group" aria-label={node.lang ? `Code (${node.lang})` : 'Code'}>
          <code class={node.lang ? `language-${node.lang.replace(/[^\w+-]/g, '')}` : undefined}>{node.value}</code>
        </pre>
      );
    case 'html':
      // Shown as typed: an answer's markup is never given to the browser to interpret.
      return <code key={key} class="raw-html">{node.value}</code>;
    case 'link':
      return link(key, node.url, node.title, children(node, ctx));
    case 'linkReference': {
      const definition = ctx.definitions.get(node.identifier);
      return definition ? link(key, definition.url, definition.title, children(node, ctx)) : <span key={key}>{children(node, ctx)}</span>;
    }
    case 'image':
      return imageLink(key, node.url, node.alt);
    case 'imageReference': {
      const definition = ctx.definitions.get(node.identifier);
      return definition ? imageLink(key, definition.url, node.alt) : <span key={key}>{node.alt}</span>;
    }
    case 'definition':
      return null;
    case 'table':
      return table(node, ctx, key);
    case 'math':
      return <Tex key={key} tex={node.value} block />;
    case 'inlineMath':
      return looksLikeMoney(node.value, next) ? `$${node.value}$` : <Tex key={key} tex={node.value} />;
    default:
      // Kinds this renderer does not draw (footnotes, front matter) keep their text.
      return 'value' in node && typeof node.value === 'string' ? node.value : 'children' in node ? <span key={key}>{children(node as Parents, ctx)}</span> : null;
  }
}

/** "$5 and $10" is prices, not math: TeX between dollars starts and ends with something other than a space, and no digit follows it. */
function looksLikeMoney(value: string, next: RootContent | undefined): boolean {
  return /^\s|\s$/.test(value) || (next?.type === 'text' && /^\d/.test(next.value));
}

function link(key: number, url: string, title: string | null | undefined, content: ComponentChildren): JSX.Element {
  const href = safeHref(url);
  if (!href) return <span key={key}>{content}</span>;
  return (
    <a key={key} href={href} title={title ?? undefined} target="_blank" rel="noopener noreferrer nofollow">
      {content}
    </a>
  );
}

/** Images are not fetched (an answer must not make the browser call another server): a link to open one. */
function imageLink(key: number, url: string, alt: string | null | undefined): JSX.Element {
  const label = `Image: ${alt?.trim() || 'untitled'}`;
  const href = safeHref(url);
  return href ? link(key, href, null, label) : <span key={key}>{label}</span>;
}

function table(node: Extract<RootContent, { type: 'table' }>, ctx: Context, key: number): JSX.Element {
  const [head, ...body] = node.children;
  const align = (i: number) => node.align?.[i] ?? undefined;
  const cell = (c: TableCell, i: number, Tag: 'th' | 'td') => (
    <Tag key={i} style={align(i) ? { textAlign: align(i)! } : undefined} scope={Tag === 'th' ? 'col' : undefined}>
      {children(c, ctx)}
    </Tag>
  );
  return (
    // A wide table scrolls inside its own box, which the keyboard can reach, never the page.
    <div key={key} class="table-scroll" tabIndex={0} role="group" aria-label="Table">
      <table>
        {head && (
          <thead>
            <tr>{head.children.map((c, i) => cell(c, i, 'th'))}</tr>
          </thead>
        )}
        <tbody>
          {body.map((row, r) => (
            <tr key={r}>{row.children.map((c, i) => cell(c, i, 'td'))}</tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
