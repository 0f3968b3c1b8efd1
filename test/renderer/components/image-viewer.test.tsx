import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { AttachmentView } from '../../../shared/ipc/domain'
import { keepFocusInside } from '../../../renderer/src/components/focus-trap'
import { forgetSentImages } from '../../../renderer/src/features/chat/sent-images'
import { FakeFailure } from '../helpers/fake-transport'
import { message, session } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const PNG_BYTES = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const image = (name: string, size = 52_000): AttachmentView => ({ name, kind: 'image', mime: 'image/png', size, textChars: null, truncated: false })
const notes: AttachmentView = { name: 'notes.md', kind: 'text', mime: 'text/markdown', size: 120, textChars: 120, truncated: false }

afterEach(() => forgetSentImages())

async function openChat(attachments: AttachmentView[], imageRoute: (input: { index: number }) => unknown) {
  const sent = message('user', 'Look at these', { attachments })
  const harness = await renderApp({
    'sessions.list': [session('s1', 'Photos')],
    'sessions.get': { session: session('s1', 'Photos'), messages: [sent, message('assistant', 'Nice.')], running: false },
    'attachments.image': imageRoute as never
  })
  fireEvent.click(screen.getByRole('button', { name: /^Photos/ }))
  await settle()
  return { harness, messageId: sent.id, row: () => screen.getByText('Look at these').closest('.message') as HTMLElement }
}

const dataOf = (index: number) => btoa(`image-${index}`)

describe('sent images as thumbnails', () => {
  it('loads each image of the message over attachments.image and shows it, named by its file name', async () => {
    const { harness, messageId, row } = await openChat([image('one.png'), notes, image('two.png')], ({ index }) => ({ mime: 'image/png', data: dataOf(index) }))
    await waitFor(() => expect(within(row()).getAllByRole('img').map((img) => img.getAttribute('alt'))).toEqual(['one.png', 'two.png']))
    expect(within(row()).getByAltText('two.png').getAttribute('src')).toBe(`data:image/png;base64,${dataOf(2)}`)
    expect(harness.bridge.callsTo('attachments.image')).toEqual([
      { sessionId: 's1', messageId, index: 0 },
      { sessionId: 's1', messageId, index: 2 }
    ])
    // The other file stays a chip.
    expect(within(row()).getByText('notes.md').closest('li')?.classList.contains('thumbnail')).toBe(false)
  })

  it('opens the viewer from a thumbnail by keyboard: ← → between the message’s images, Esc closes and gives focus back', async () => {
    const { row } = await openChat([image('one.png', 1024), image('two.png', 2048), image('three.png', 3 * 1024 * 1024)], ({ index }) => ({ mime: 'image/png', data: dataOf(index) }))
    await waitFor(() => expect(within(row()).getAllByRole('img')).toHaveLength(3))
    const second = within(row()).getByRole('button', { name: 'Open two.png' })
    second.focus()
    fireEvent.click(second) // Enter on a button clicks it
    await settle()

    const viewer = screen.getByRole('dialog', { name: 'two.png' })
    expect(within(viewer).getByRole('img', { name: 'two.png' }).getAttribute('src')).toBe(`data:image/png;base64,${dataOf(1)}`)
    expect(within(viewer).getByText('2 KB · 2 of 3')).toBeTruthy()
    expect(document.activeElement).toBe(within(viewer).getByRole('button', { name: 'Close the image viewer' }))

    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' })
    expect(screen.getByRole('dialog', { name: 'three.png' })).toBeTruthy()
    expect(screen.getByText('3.0 MB · 3 of 3')).toBeTruthy()
    expect((screen.getByRole('button', { name: 'Next image' }) as HTMLButtonElement).disabled).toBe(true)
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' })
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' })
    expect(screen.getByRole('dialog', { name: 'one.png' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Next image' }))
    expect(screen.getByRole('dialog', { name: 'two.png' })).toBeTruthy()

    fireEvent.keyDown(document.activeElement!, { key: 'Escape' })
    await settle()
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(second)
  })

  it('keeps Tab inside the viewer', async () => {
    const { row } = await openChat([image('one.png'), image('two.png')], ({ index }) => ({ mime: 'image/png', data: dataOf(index) }))
    await waitFor(() => expect(within(row()).getAllByRole('img')).toHaveLength(2))
    fireEvent.click(within(row()).getByRole('button', { name: 'Open one.png' }))
    await settle()
    const close = screen.getByRole('button', { name: 'Close the image viewer' })
    const next = screen.getByRole('button', { name: 'Next image' })
    next.focus()
    fireEvent.keyDown(next, { key: 'Tab' })
    expect(document.activeElement).toBe(close)
    fireEvent.keyDown(close, { key: 'Tab', shiftKey: true })
    expect(document.activeElement).toBe(next)
    // Focus lost to the page (a click on the picture): Tab brings it back to the first control.
    ;(document.activeElement as HTMLElement).blur()
    fireEvent.keyDown(screen.getByRole('dialog').querySelector('img')!, { key: 'Tab' })
    expect(document.activeElement).toBe(close)
  })

  it('shares the dialogs’ focus trap, which wraps over any focusable, not only buttons', () => {
    const panel = document.createElement('div')
    panel.innerHTML = '<a href="#a">first</a><button disabled>off</button><input aria-label="last">'
    document.body.append(panel)
    const [link, input] = [panel.querySelector('a')!, panel.querySelector('input')!]
    const tab = (shiftKey: boolean) => ({ shiftKey, preventDefault: () => {} })
    input.focus()
    keepFocusInside(panel, tab(false))
    expect(document.activeElement).toBe(link)
    keepFocusInside(panel, tab(true))
    expect(document.activeElement).toBe(input)
    panel.remove()
  })

  it('says so when an image’s stored copy is gone', async () => {
    const { row } = await openChat([image('gone.png')], () => {
      throw new FakeFailure('NOT_FOUND', 'gone', { name: 'gone.png' })
    })
    await settle()
    expect(within(row()).queryByRole('img')).toBeNull()
    fireEvent.click(within(row()).getByRole('button', { name: 'Open gone.png' }))
    await settle()
    expect(within(screen.getByRole('dialog', { name: 'gone.png' })).getByRole('status').textContent).toBe('This image can no longer be shown: its stored copy is missing.')
  })
})

describe('images on the composer', () => {
  it('shows a picked image as a thumbnail that opens in the viewer before sending', async () => {
    await renderApp({ 'sessions.list': [] })
    const input = screen.getByTestId('attach-input') as HTMLInputElement
    await act(async () => {
      fireEvent.change(input, { target: { files: [new File([new Uint8Array(PNG_BYTES)], 'shot.png', { type: 'image/png' })] } })
    })
    const form = screen.getByRole('textbox', { name: 'Message' }).closest('form')!
    await waitFor(() => expect(within(form).getByRole('img', { name: 'shot.png' }).getAttribute('src')).toMatch(/^data:image\/png;base64,/))
    fireEvent.click(within(form).getByRole('button', { name: 'Open shot.png' }))
    await settle()
    expect(within(screen.getByRole('dialog', { name: 'shot.png' })).getByRole('img', { name: 'shot.png' })).toBeTruthy()
    expect(within(form).getByRole('button', { name: 'Remove shot.png' })).toBeTruthy()
  })
})
