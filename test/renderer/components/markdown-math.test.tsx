import { fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { AppProvider } from '../../../renderer/src/app/context'
import { Markdown, StreamingMarkdown } from '../../../renderer/src/components/Markdown'
import { normaliseMath } from '../../../renderer/src/components/math'
import { message, session } from '../helpers/fixtures'
import { createHarnessState, renderApp, settle } from '../helpers/render-app'

function renderMarkdown(text: string, live = false) {
  const { app } = createHarnessState({})
  return render(<AppProvider app={app}>{live ? <StreamingMarkdown text={text} /> : <Markdown text={text} />}</AppProvider>)
}

/** The TeX of every formula KaTeX drew (its MathML annotation), and whether each is display math. */
function formulas(container: HTMLElement): Array<{ tex: string; display: boolean }> {
  return [...container.querySelectorAll('.katex')].map((node) => ({
    tex: node.querySelector('annotation[encoding="application/x-tex"]')?.textContent ?? '',
    display: Boolean(node.closest('.katex-display'))
  }))
}

describe('math in Markdown', () => {
  it('draws inline $…$ and \\(…\\) and display $$…$$ and \\[…\\] with KaTeX', () => {
    const { container } = renderMarkdown(
      'Energy: $E=mc^2$, and \\(a^2+b^2=c^2\\).\n\n$$\n\\int_0^1 x\\,dx\n$$\n\n\\[\n\\sum_{i=1}^n i\n\\]\n\n$$\\frac{1}{2}$$\n\n质能方程$E=mc^2$表明'
    )
    expect(formulas(container)).toEqual([
      { tex: 'E=mc^2', display: false },
      { tex: 'a^2+b^2=c^2', display: false },
      { tex: '\\int_0^1 x\\,dx', display: true },
      { tex: '\\sum_{i=1}^n i', display: true },
      { tex: '\\frac{1}{2}', display: true },
      { tex: 'E=mc^2', display: false }
    ])
    expect(container.querySelector('.katex-html')).not.toBeNull()
    expect(container.textContent).not.toContain('$')
  })

  it('leaves money, shell variables and escaped dollars as they are written', () => {
    const text = 'It costs $5 and $10, or US$20 to $30. Set $PATH:$HOME. Price: \\$3 and \\$4.'
    const { container } = renderMarkdown(text)
    expect(container.querySelector('.katex')).toBeNull()
    expect(container.textContent).toBe('It costs $5 and $10, or US$20 to $30. Set $PATH:$HOME. Price: $3 and $4.')
  })

  it('never touches code spans or code blocks', () => {
    const { container } = renderMarkdown('Run `echo $a$` here.\n\n```sh\necho $x$ \\(y\\)\n$$\n```')
    expect(container.querySelector('.katex')).toBeNull()
    expect(container.querySelector('p code')?.textContent).toBe('echo $a$')
    expect(container.querySelector('pre')?.textContent).toContain('echo $x$ \\(y\\)\n$$')
  })

  it('keeps hostile TeX inert: no links, no classes or data from the model, bad TeX shown as its source', () => {
    const { container } = renderMarkdown(
      'A $\\href{javascript:alert(1)}{click}$ B $\\url{javascript:alert(2)}$ C $\\htmlClass{evil}{x}$ D $\\htmlData{foo=bar}{y}$ E $\\frac{1}{$ F'
    )
    expect(container.querySelector('a')).toBeNull()
    expect(container.querySelector('.evil')).toBeNull()
    expect(container.querySelector('[data-foo]')).toBeNull()
    expect(container.querySelector('[href], [src], [data-foo]')).toBeNull()
    // An untrusted command is drawn as its own name in the error colour (its source stays in the annotation only, as text).
    const refused = [...container.querySelectorAll('.katex-html [style*="color"]')].map((node) => node.textContent)
    expect(refused).toEqual(expect.arrayContaining(['\\href', '\\url', '\\htmlClass', '\\htmlData']))
    expect(container.querySelector('.katex-error')?.textContent).toBe('\\frac{1}{')
  })

  it('shows a formula still being streamed as text until it closes', () => {
    const partial = renderMarkdown('So $E=mc\n\n$$\n\\frac{1}{', true)
    expect(partial.container.querySelector('.katex')).toBeNull()
    expect(partial.container.textContent).toContain('$E=mc')
    expect(partial.container.textContent).toContain('$$')
    partial.unmount()
    const done = renderMarkdown('So $E=mc^2$\n\n$$\n\\frac{1}{2}\n$$', true)
    expect(formulas(done.container)).toEqual([
      { tex: 'E=mc^2', display: false },
      { tex: '\\frac{1}{2}', display: true }
    ])
  })
})

describe('normaliseMath', () => {
  it('writes every delimiter as remark-math reads it, keeping quotes and list indentation', () => {
    expect(normaliseMath('> $$x$$\n> next')).toBe('> $$\n> x\n> $$\n> next')
    expect(normaliseMath('- item\n  \\[\n  y\n  \\]')).toBe('- item\n  $$\n  y\n  $$')
    expect(normaliseMath('a $x$ b')).toBe('a $$x$$ b')
    expect(normaliseMath('no math: $ 5 $, $5 $ and $x$1')).toBe('no math: $ 5 $, $5 $ and $x$1')
    expect(normaliseMath('~~~\n$x$\n~~~\n$y$')).toBe('~~~\n$x$\n~~~\n$$y$$')
  })

  it('copies indented code as it is, but not a paragraph’s or a list item’s indented lines', () => {
    const code = '    echo $a$ \\(b\\)\n\tprintf $c$\n\n    $$d$$'
    expect(normaliseMath(code)).toBe(code)
    expect(normaliseMath(`Run:\n\n${code}\n\nthen $x$`)).toBe(`Run:\n\n${code}\n\nthen $$x$$`)
    expect(normaliseMath('# Title\n    $a$')).toBe('# Title\n    $a$')
    // Not code: a paragraph's continuation line, and a list item's text after a blank line.
    expect(normaliseMath('text\n    $a$')).toBe('text\n    $$a$$')
    expect(normaliseMath('1. step\n\n    $a$ more')).toBe('1. step\n\n    $$a$$ more')
    expect(normaliseMath('- item\n\nafter\n\n    $a$')).toBe('- item\n\nafter\n\n    $a$')
    const { container } = renderMarkdown(`Run:\n\n    echo $a$\n`)
    expect(container.querySelector('.katex')).toBeNull()
    expect(container.querySelector('pre')?.textContent).toBe('echo $a$')
  })
})

describe('copying an answer with math', () => {
  it('copies the TeX the model wrote, not the drawn formula', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined)
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    const answer = 'So $E=mc^2$ and\n\n$$\n\\frac{1}{2}\n$$'
    await renderApp({
      'sessions.list': [session('s1', 'Physics')],
      'sessions.get': { session: session('s1', 'Physics'), messages: [message('user', 'Explain'), message('assistant', answer)], running: false }
    })
    fireEvent.click(screen.getByRole('button', { name: /^Physics/ }))
    await settle()
    const row = document.querySelector('.message.assistant') as HTMLElement
    expect(row.querySelectorAll('.katex')).toHaveLength(2)
    fireEvent.click(within(row).getByRole('button', { name: 'Copy' }))
    await settle()
    expect(writeText).toHaveBeenCalledWith(answer)
  })
})
