import { useEffect, useState } from 'preact/hooks';

type MarkdownModule = typeof import('../markdown.js');

let loaded: MarkdownModule | undefined;
let loading: Promise<MarkdownModule> | undefined;

/** Starts fetching the renderer (a chunk of its own: only the tutor needs it) before the first answer arrives. */
export function preloadMarkdown(): Promise<MarkdownModule> {
  loading ??= import('../markdown.js').then((module) => (loaded = module));
  return loading;
}

/** A tutor's answer as formatted Markdown; as plain text for the moment the renderer takes to load. */
export function AnswerText({ text }: { text: string }) {
  const [module, setModule] = useState(loaded);
  useEffect(() => {
    if (!module) void preloadMarkdown().then(setModule);
  }, []);
  return module ? <module.Markdown text={text} /> : <div class="plain">{text}</div>;
}
