// The part of highlight.js's core that src/render/highlight.ts uses (see highlight-languages.d.ts
// for why svc declares it itself).
declare const hljs: {
  registerLanguage(name: string, language: (hljs: unknown) => unknown): void;
  getLanguage(name: string): object | undefined;
  highlight(code: string, options: { language: string; ignoreIllegals?: boolean }): { value: string };
};
export default hljs;
