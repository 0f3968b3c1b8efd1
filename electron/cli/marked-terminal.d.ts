// marked-terminal ships no types (and @types/marked-terminal pins a marked older than ours): the one call we use.
declare module 'marked-terminal' {
  import type { MarkedExtension } from 'marked'
  export function markedTerminal(options?: Record<string, unknown>, highlightOptions?: Record<string, unknown>): MarkedExtension
}
