import { stripVTControlCharacters } from 'node:util'
import { describe, expect, it } from 'vitest'
import { createMarkdownRenderer } from '../../electron/cli/markdown-render'

const render = createMarkdownRenderer()
const shown = (markdown: string) => stripVTControlCharacters(render(markdown)).trimEnd()

describe('math in the terminal', () => {
  it('prints inline math as the TeX the model wrote (no emphasis, backslashes kept)', () => {
    expect(shown('Energy $E=mc^2$, then $a*b*c$ and \\(a_1 \\{x\\}\\) and $$x_*$$ end.')).toBe(
      'Energy $E=mc^2$, then $a*b*c$ and \\(a_1 \\{x\\}\\) and $$x_*$$ end.'
    )
  })

  it('prints display math blocks line for line', () => {
    expect(shown('Before\n\n$$\n\\frac{a*b}{c*d} \\\\\n$$\n\nAfter')).toBe('Before\n\n$$\n\\frac{a*b}{c*d} \\\\\n$$\n\nAfter')
    expect(shown('\\[\nx_1*y_1*\n\\]')).toBe('\\[\nx_1*y_1*\n\\]')
  })

  it('leaves money and code alone', () => {
    expect(shown('It costs $5 and *$10*, or `echo $a*b$`.')).toBe('It costs $5 and $10, or echo $a*b$.')
  })
})
