// highlight.js ships types for its index and core only, and those reference the DOM library,
// which would put browser globals (fetch's DOM types, HTMLElement...) into every file of svc.
// So svc declares the little it uses: src/types/highlight-core.d.ts for the core (mapped in
// tsconfig.json "paths"), and here the language modules, each one definition function.
declare module 'highlight.js/lib/languages/*' {
  const language: (hljs: unknown) => unknown;
  export default language;
}
