import { fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { AppProvider } from '../../../renderer/src/app/context'
import { DiffViewer } from '../../../renderer/src/features/skills/DiffViewer'
import { computeDiff } from '../../../renderer/src/features/skills/diff-model'
import { createHarnessState } from '../helpers/render-app'

const before = ['# Deploy', 'step one', 'step two', 'keep', 'tail'].join('\n')
const after = ['# Deploy', 'step one', 'step 2 <script>alert(1)</script>', 'keep', 'tail', 'new last line'].join('\n')

function renderDiff() {
  const { app } = createHarnessState()
  return render(
    <AppProvider app={app}>
      <DiffViewer before={before} after={after} fileName="SKILL.md" />
    </AppProvider>
  )
}

const cells = (container: HTMLElement, type: string) => [...container.querySelectorAll(`[data-type="${type}"]`)].map((el) => (el.querySelector('.code') ?? el).textContent)

describe('DiffViewer', () => {
  it('shows removed and added lines with line numbers in unified mode, as text', () => {
    const { container } = renderDiff()
    expect(cells(container, 'del')).toEqual(['step two'])
    expect(cells(container, 'add')).toEqual(['step 2 <script>alert(1)</script>', 'new last line'])
    expect(container.querySelector('script')).toBeNull()
    const removed = container.querySelector('tr[data-type="del"]')!
    expect([...removed.querySelectorAll('.ln')].map((td) => td.textContent)).toEqual(['3', ''])
    expect(screen.getByText('+2')).toBeTruthy()
    expect(screen.getByText('−1')).toBeTruthy()
  })

  it('pairs removals with their replacements side by side', () => {
    const { container } = renderDiff()
    fireEvent.click(screen.getByRole('button', { name: 'Side by side' }))
    expect(container.querySelector('table')?.getAttribute('data-mode')).toBe('split')
    const row = [...container.querySelectorAll('tr.split-row')].find((tr) => tr.querySelector('[data-type="del"]'))!
    expect(row.querySelector('td.code.del')?.textContent).toBe('step two')
    expect(row.querySelector('td.code.add')?.textContent).toBe('step 2 <script>alert(1)</script>')
    expect(cells(container, 'add')).toEqual(['step 2 <script>alert(1)</script>', 'new last line'])
    expect(container.querySelector('script')).toBeNull()
  })

  it('treats a missing "before" as a new file', () => {
    const diff = computeDiff(null, 'a\nb')
    expect(diff.added).toBe(2)
    expect(diff.removed).toBe(0)
    expect(diff.hunks[0].lines.map((l) => [l.type, l.newNo])).toEqual([
      ['add', 1],
      ['add', 2]
    ])
  })
})
