import { fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { AppProvider } from '../../../renderer/src/app/context'
import { Markdown } from '../../../renderer/src/components/Markdown'
import { settle, createHarnessState } from '../helpers/render-app'
import type { FakeBridge } from '../helpers/fake-transport'

function renderMarkdown(text: string, mode: 'desktop' | 'browser' = 'desktop') {
  const { app, bridge } = createHarnessState({ 'shell.openExternal': { ok: true } })
  const client = mode === 'desktop' ? app.client : { ...app.client, mode: 'browser' as const }
  const view = render(
    <AppProvider app={{ ...app, client }}>
      <Markdown text={text} />
    </AppProvider>
  )
  return { ...view, bridge: bridge as FakeBridge }
}

describe('Markdown', () => {
  it('shows raw HTML from model output as text and never creates the element', () => {
    const { container } = renderMarkdown('Look: <img src=x onerror=alert(1)> and <script>alert(2)</script>\n\n<iframe src="https://evil"></iframe>')
    expect(container.querySelector('img')).toBeNull()
    expect(container.querySelector('script')).toBeNull()
    expect(container.querySelector('iframe')).toBeNull()
    expect(container.textContent).toContain('<img src=x onerror=alert(1)>')
    expect(container.textContent).toContain('<iframe src="https://evil"></iframe>')
  })

  it('drops javascript: links and shows markdown images as links, not images', () => {
    const { container } = renderMarkdown('[click](javascript:alert(1)) ![pic](https://tracker.example/p.png)', 'browser')
    expect(container.querySelector('img')).toBeNull()
    const hrefs = [...container.querySelectorAll('a')].map((a) => a.getAttribute('href'))
    expect(hrefs.some((href) => href?.startsWith('javascript'))).toBe(false)
    expect(container.textContent).toContain('pic')
  })

  it('renders GitHub-flavoured markdown and highlights code with a copy button', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined)
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    const { container } = renderMarkdown('| a | b |\n|---|---|\n| 1 | 2 |\n\n```js\nconst x = 1\n```')
    expect(container.querySelector('table')).not.toBeNull()
    expect(container.querySelector('code.hljs.language-js .hljs-keyword')?.textContent).toBe('const')
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }))
    await settle()
    expect(writeText).toHaveBeenCalledWith('const x = 1')
    expect(screen.getByRole('button', { name: 'Copied' })).toBeTruthy()
  })

  it('opens https links through the shell in the desktop app and leaves other schemes inert', async () => {
    const { container, bridge } = renderMarkdown('[docs](https://example.com/docs) and [local](http://intranet/x)')
    const link = screen.getByRole('link', { name: 'docs' })
    expect(link.getAttribute('target')).toBeNull()
    fireEvent.click(link)
    await settle()
    expect(bridge.callsTo('shell.openExternal')).toEqual([{ url: 'https://example.com/docs' }])
    expect(container.querySelectorAll('a')).toHaveLength(1)
    expect(screen.getByText('local').tagName).toBe('SPAN')
  })

  it('opens links in a new tab without a referrer in browser mode', () => {
    renderMarkdown('[docs](https://example.com/docs)', 'browser')
    const link = screen.getByRole('link', { name: 'docs' })
    expect(link.getAttribute('target')).toBe('_blank')
    expect(link.getAttribute('rel')).toBe('noreferrer')
  })
})
