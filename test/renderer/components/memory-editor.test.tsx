import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { memoryView } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

// "About you": 2 entries, 90 of 120 characters used (the separator between entries counts as 3).
async function openMemory() {
  const harness = await renderApp({
    'memory.get': { memory: memoryView([], 0, 2200), user: memoryView(['Name is Ana', 'Prefers short answers'], 90, 120) },
    'memory.add': { success: true },
    'memory.replace': { success: true }
  })
  fireEvent.click(screen.getByRole('button', { name: 'Memory' }))
  await settle()
  return { harness, user: screen.getByRole('region', { name: 'About you' }) }
}

describe('memory editor limits', () => {
  it('counts down while typing, then says how far over the limit an entry is and will not add it', async () => {
    const { harness, user } = await openMemory()
    const box = within(user).getByRole('textbox', { name: 'New entry for About you' })
    const add = within(user).getByRole('button', { name: 'Add' }) as HTMLButtonElement
    fireEvent.change(box, { target: { value: 'Lives in Lisbon' } })
    expect(within(user).getByText('12 characters left')).toBeTruthy()
    expect(add.disabled).toBe(false)

    fireEvent.change(box, { target: { value: 'Lives in Lisbon and works remotely for a small team' } })
    expect(within(user).getByText('24 characters over the limit')).toBeTruthy()
    expect(add.disabled).toBe(true)
    // Ctrl+Enter is refused the same way: nothing is sent, the text stays for shortening.
    fireEvent.keyDown(box, { key: 'Enter', ctrlKey: true })
    await settle()
    expect(harness.bridge.callsTo('memory.add')).toEqual([])
    expect((box as HTMLTextAreaElement).value).toBe('Lives in Lisbon and works remotely for a small team')

    fireEvent.change(box, { target: { value: 'Lives in Lisbon, remote' } })
    expect(within(user).getByText('4 characters left')).toBeTruthy()
    fireEvent.click(add)
    await settle()
    expect(harness.bridge.callsTo('memory.add')).toEqual([{ target: 'user', content: 'Lives in Lisbon, remote' }])
  })

  it('an edit that would pass the limit says by how much and cannot be saved until shortened', async () => {
    const { harness, user } = await openMemory()
    fireEvent.click(within(user).getAllByRole('button', { name: 'Edit' })[0])
    const box = within(user).getByRole('textbox', { name: 'Entry text' })
    const save = within(user).getByRole('button', { name: 'Save' }) as HTMLButtonElement
    // 30 spare characters: "Name is Ana" (11) may grow to 41.
    fireEvent.change(box, { target: { value: 'Name is Ana Lima, called Aninha by friends' } })
    expect(within(user).getByText('1 character over: shorten it to save')).toBeTruthy()
    expect(save.disabled).toBe(true)
    fireEvent.change(box, { target: { value: 'Name is Ana Lima, called Aninha by frien' } })
    expect(within(user).queryByText(/characters over/)).toBeNull()
    fireEvent.click(save)
    await settle()
    expect(harness.bridge.callsTo('memory.replace')).toEqual([{ target: 'user', oldText: 'Name is Ana', content: 'Name is Ana Lima, called Aninha by frien' }])
  })

  it("keeps every entry's actions in the page for the keyboard, not only on hover", async () => {
    const { user } = await openMemory()
    const entry = within(user).getByText('Prefers short answers').closest('li') as HTMLElement
    const names = within(entry)
      .getAllByRole('button')
      .map((button) => button.getAttribute('aria-label'))
    expect(names).toEqual(['Pinned', "Don't bring this up", 'History', 'Edit', 'Delete'])
    const edit = within(entry).getByRole('button', { name: 'Edit' })
    edit.focus()
    expect(document.activeElement).toBe(edit)
  })
})
