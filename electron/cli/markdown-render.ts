import { Marked } from 'marked'
import { markedTerminal } from 'marked-terminal'
import { mathAsSource } from './markdown-math'

/**
 * marked with marked-terminal. Bundled on its own (out/cli/markdown-render.js, see scripts/build-cli.mjs)
 * and loaded by terminal-markdown.ts on the first answer only: with its code highlighter it is half the
 * size of the rest of the CLI, which every command (`cairn --help`, `cairn search`) would parse at start-up.
 */
export function createMarkdownRenderer(): (markdown: string) => string {
  // emoji off: `:word:` in an answer stays as written; a two-space tab keeps lists and code compact.
  const marked = new Marked({ async: false, gfm: true }).use(markedTerminal({ emoji: false, tab: 2 }), {
    // A fence without a language is shown as written: guessed highlighting colours words of prose or a shell line at random.
    walkTokens: (token) => {
      if (token.type === 'code' && !token.lang) token.lang = 'plaintext'
    }
  }, mathAsSource)
  return (markdown) => marked.parse(markdown, { async: false })
}
