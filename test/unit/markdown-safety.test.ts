import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { describe, expect, it } from 'vitest';
import { Markdown, safeHref } from '../../web/src/markdown.js';

/**
 * The tutor's answer is text a model wrote, which a student's (or anyone's) prompt can steer. Whatever it
 * holds, the renderer may only produce the elements and attributes of Markdown: no element that runs or
 * loads anything, no event handler, no link anywhere but the web or an email address. Checked on the
 * HTML Preact serialises (text is escaped there, so every `<` left is a real element).
 */
const render = (text: string) => renderToString(h(Markdown, { text }));

const ALLOWED: Record<string, string[]> = {
  div: ['class', 'tabindex', 'role', 'aria-label'],
  p: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  em: [],
  strong: [],
  del: [],
  code: ['class'],
  br: [],
  hr: [],
  blockquote: [],
  ol: ['start'],
  ul: [],
  li: ['class'],
  span: ['class', 'role', 'aria-label', 'aria-hidden'],
  pre: ['tabindex', 'role', 'aria-label'],
  a: ['href', 'title', 'target', 'rel'],
  table: [],
  thead: [],
  tbody: [],
  tr: [],
  th: ['style', 'scope'],
  td: ['style'],
  sup: [],
  sub: [],
};

interface Tag {
  name: string;
  attributes: Record<string, string>;
}

/** Every start tag of serialised HTML with its attributes (values unescaped as a browser would read them). */
function tagsOf(html: string): Tag[] {
  const tags: Tag[] = [];
  for (const match of html.matchAll(/<([a-zA-Z][\w-]*)((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*\/?>/g)) {
    const attributes: Record<string, string> = {};
    for (const attribute of match[2]!.matchAll(/([^\s=>]+)(?:="([^"]*)")?/g)) {
      attributes[attribute[1]!.toLowerCase()] = (attribute[2] ?? '').replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    }
    tags.push({ name: match[1]!.toLowerCase(), attributes });
  }
  return tags;
}

/** What a rendering may contain; the problems found, empty when it is safe. */
function problems(html: string): string[] {
  const found: string[] = [];
  // Nothing that looks like a tag may survive outside the tags we found (an unbalanced quote would hide one).
  const stripped = html.replace(/<\/?[a-zA-Z][\w-]*(?:\s+[^\s=>]+(?:="[^"]*")?)*\s*\/?>/g, '');
  if (/<[a-zA-Z!/?]/.test(stripped)) found.push(`markup outside known tags: ${stripped.match(/<[a-zA-Z!/?].{0,40}/)![0]}`);
  for (const tag of tagsOf(html)) {
    const allowed = ALLOWED[tag.name];
    if (!allowed) {
      found.push(`element <${tag.name}>`);
      continue;
    }
    for (const [name, value] of Object.entries(tag.attributes)) {
      if (!allowed.includes(name)) found.push(`attribute ${name} on <${tag.name}>`);
      if (name === 'href' && !/^(https?:\/\/|mailto:)/i.test(value)) found.push(`href ${value}`);
      if (name === 'style' && !/^text-align:\s*(left|right|center);?$/.test(value)) found.push(`style ${value}`);
      if (name === 'class' && !/^[\w -]*$/.test(value)) found.push(`class ${value}`);
    }
  }
  return found;
}

/** Ways answers have tried to run code, from XSS cheat sheets and Markdown renderers' past advisories. */
const PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<img src="x" onerror="alert(1)"/>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>">',
  '<object data="data:text/html,<script>alert(1)</script>">',
  '<embed src=javascript:alert(1)>',
  '<style>body{background:url(javascript:alert(1))}</style>',
  '<a href="javascript:alert(1)">x</a>',
  '<div onmouseover="alert(1)">hover</div>',
  '<details open ontoggle=alert(1)>',
  '<form action=javascript:alert(1)><button>go</button></form>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<!-- <img src=x onerror=alert(1)> -->',
  '<![CDATA[<script>alert(1)</script>]]>',
  '[x](javascript:alert(1))',
  '[x](JaVaScRiPt:alert(1))',
  '[x](javascript&#58;alert(1))',
  '[x](&#106;avascript:alert(1))',
  '[x](java\tscript:alert(1))',
  '[x]( javascript:alert(1) )',
  '[x](vbscript:msgbox(1))',
  '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[x](file:///etc/passwd)',
  '[x](//evil.example)',
  '[x](/settings)',
  '<javascript:alert(1)>',
  '[x][ref]\n\n[ref]: javascript:alert(1)',
  '![x](javascript:alert(1))',
  '![x" onerror="alert(1)](https://evil.example/a.png)',
  '[x](https://ok.example "\\" onmouseover=\\"alert(1)")',
  '[x](https://ok.example/"onmouseover="alert(1))',
  '`<script>alert(1)</script>`',
  '```html\n<script>alert(1)</script>\n```',
  '```"><script>alert(1)</script>\ncode\n```',
  '$<script>alert(1)</script>$',
  '$$\n\\text{<img src=x onerror=alert(1)>}\n$$',
  '\\(\\href{javascript:alert(1)}{x}\\)',
  '| a |\n|---|\n| <img src=x onerror=alert(1)> |',
  '- [ ] <script>alert(1)</script>',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '&#60;script&#62;alert(1)&#60;/script&#62;',
];

/** Markdown around a payload: inside lists, quotes, tables, emphasis, headings, links. */
const FRAMES = [
  (p: string) => p,
  (p: string) => `Some text ${p} more text`,
  (p: string) => `- item\n- ${p}\n  - nested ${p}`,
  (p: string) => `1. ${p}`,
  (p: string) => `> ${p}`,
  (p: string) => `**${p}** and *${p}*`,
  (p: string) => `## ${p}`,
  (p: string) => `| col |\n|:--|\n| ${p} |`,
  (p: string) => `[${p}](https://ok.example)`,
  (p: string) => `${p}\n\n\`\`\`\n${p}\n\`\`\``,
];

/** A small deterministic generator, so a failure names a document that can be run again. */
function* documents(count: number, seed = 20261126): Generator<string> {
  let state = seed;
  const next = (n: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % n;
  };
  for (let i = 0; i < count; i++) {
    const parts = Array.from({ length: 1 + next(4) }, () => FRAMES[next(FRAMES.length)]!(PAYLOADS[next(PAYLOADS.length)]!));
    yield parts.join(next(2) ? '\n\n' : ' ');
  }
}

describe('the answer renderer', () => {
  it.each(PAYLOADS)('keeps %s inert wherever it stands', (payload) => {
    for (const frame of FRAMES) expect(problems(render(frame(payload))), frame(payload)).toEqual([]);
  });

  it('keeps 500 generated documents inert', () => {
    for (const document of documents(500)) expect(problems(render(document)), document).toEqual([]);
  });

  it('shows markup as the text it is', () => {
    const html = render('Use <b>bold</b> or <script>alert(1)</script>.');
    expect(html.replace(/<[^>]+>/g, '').replace(/&lt;/g, '<')).toContain('Use <b>bold</b> or <script>alert(1)</script>.');
    expect(html).not.toMatch(/<(b|script)>/);
  });

  it('renders what tutors write: lists, code, emphasis, tables, math; no ``` or ** left as text', () => {
    const html = render(
      [
        'Two **steps**, one *idea* and `x = 1`:',
        '',
        '1. first',
        '2. second',
        '   - nested',
        '',
        '```js',
        'const a = 1;',
        '```',
        '',
        '| a | b |',
        '|---|--:|',
        '| 1 | 2 |',
        '',
        'Area $\\pi r^2$, and $$\\frac{1}{2}$$; prices $5 and $10 stay prices.',
      ].join('\n'),
    );
    expect(html).toContain('<strong>steps</strong>');
    expect(html).toContain('<em>idea</em>');
    expect(html).toContain('<code>x = 1</code>');
    expect(html).toMatch(/<ol start="1"><li>first<\/li><li>second<ul><li>nested<\/li><\/ul><\/li><\/ol>/);
    expect(html).toMatch(/<pre [^>]*><code class="language-js">const a = 1;<\/code><\/pre>/);
    expect(html).toMatch(/<th style="text-align:right;?" scope="col">b<\/th>/);
    expect(html).toContain('π r<sup>2</sup>');
    expect(html).toContain('$5 and $10');
    const text = html.replace(/<[^>]+>/g, '');
    expect(text).not.toMatch(/```|\*\*/);
  });

  it('links only to the web and email, opening a new tab without access to this one', () => {
    expect(render('[docs](https://docs.python.org/3/)')).toContain('<a href="https://docs.python.org/3/" target="_blank" rel="noopener noreferrer nofollow">docs</a>');
    expect(render('<https://sfu.ca>, mail@example.com')).toMatch(/<a href="https:\/\/sfu\.ca\/".*<a href="mailto:mail@example\.com"/);
    for (const url of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', ' javascript:alert(1)', 'data:text/html,x', 'vbscript:x', '/relative', '//host', 'file:///x', '']) {
      expect(safeHref(url), url).toBeUndefined();
    }
  });

  it('offers images as links rather than loading them', () => {
    const html = render('![a diagram](https://example.com/d.png)');
    expect(html).not.toContain('<img');
    expect(html).toContain('<a href="https://example.com/d.png" target="_blank" rel="noopener noreferrer nofollow">Image: a diagram</a>');
  });
});
