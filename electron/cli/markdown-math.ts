import type { MarkedExtension, Tokens } from 'marked'

/**
 * Math in an answer is printed as the TeX the model wrote: a terminal cannot draw it, and left to
 * markdown, `*`, `_` and `\` inside a formula would turn into emphasis or lose their backslashes.
 * The delimiters are the ones the app draws (renderer/src/components/math.ts): `$…$` only as pandoc
 * reads it (so "$5 and $10" is money), `$$…$$`, `\(…\)`, `\[…\]`, and `$$` or `\[` blocks.
 */
const INLINE = [
  /^\$\$(?!\$)[^\n]+?\$\$/,
  /^\$(?=\S)[^\n$]*?[^\s\\]\$(?![A-Za-z0-9$])/,
  /^\$[^\s$\\]\$(?![A-Za-z0-9$])/,
  /^\\\([^\n]+?\\\)/,
  /^\\\[[^\n]+?\\\]/
]
const BLOCK = /^ {0,3}(?:\$\$\n[\s\S]*?\n {0,3}\$\$|\\\[\n[\s\S]*?\n {0,3}\\\])[ \t]*(?:\n+|$)/

export const mathAsSource: MarkedExtension = {
  extensions: [
    {
      name: 'mathBlock',
      level: 'block',
      start: (src) => /^ {0,3}(\$\$|\\\[)$/m.exec(src)?.index,
      tokenizer: (src) => {
        const raw = BLOCK.exec(src)?.[0]
        return raw ? { type: 'mathBlock', raw, text: raw.trimEnd() } : undefined
      },
      renderer: (token) => `${(token as Tokens.Generic).text}\n\n`
    },
    {
      name: 'mathInline',
      level: 'inline',
      start: (src) => /\$|\\[([]/.exec(src)?.index,
      tokenizer: (src) => {
        for (const pattern of INLINE) {
          const raw = pattern.exec(src)?.[0]
          if (raw) return { type: 'mathInline', raw, text: raw }
        }
        return undefined
      },
      renderer: (token) => (token as Tokens.Generic).text
    }
  ]
}
