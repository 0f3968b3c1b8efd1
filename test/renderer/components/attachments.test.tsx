import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { FakeFailure } from '../helpers/fake-transport'
import { message, session } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const PNG_BYTES = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

async function openChat(extra: Parameters<typeof renderApp>[0] = {}, messages = [message('user', 'Earlier')]) {
  const harness = await renderApp({
    'sessions.list': [session('s1', 'Files day')],
    'sessions.get': { session: session('s1', 'Files day'), messages, running: false },
    'chat.send': { sessionId: 's1', turnId: 't2' },
    ...extra
  })
  fireEvent.click(screen.getByRole('button', { name: /^Files day/ }))
  await settle()
  return harness
}

async function pick(files: File[]) {
  const input = screen.getByTestId('attach-input') as HTMLInputElement
  await act(async () => {
    fireEvent.change(input, { target: { files } })
  })
  await settle()
}

function composerChips() {
  const form = screen.getByRole('textbox', { name: 'Message' }).closest('form')!
  return within(form).queryAllByRole('listitem').map((chip) => chip.textContent)
}

async function typeAndSend(text: string) {
  const box = screen.getByRole('textbox', { name: 'Message' })
  fireEvent.change(box, { target: { value: text } })
  fireEvent.keyDown(box, { key: 'Enter' })
  await settle()
}

describe('attachments on the composer', () => {
  it('shows picked files as removable chips and sends the rest as base64 with name and type', async () => {
    const harness = await openChat()
    await pick([new File([new Uint8Array(PNG_BYTES)], 'shot.png', { type: 'image/png' }), new File(['# Plan'], 'plan.md', { type: '' })])
    await waitFor(() => expect(composerChips()).toEqual(['shot.pngImage · 8 B', 'plan.mdText · 6 B']))
    fireEvent.click(screen.getByRole('button', { name: 'Remove shot.png' }))
    expect(composerChips()).toEqual(['plan.mdText · 6 B'])

    await typeAndSend('Read this')
    expect(harness.bridge.callsTo('chat.send')).toEqual([
      { sessionId: 's1', text: 'Read this', attachments: [{ name: 'plan.md', mime: 'text/plain', data: btoa('# Plan') }] }
    ])
    expect(composerChips()).toEqual([])
    // The sent message carries its chip at once.
    const sent = screen.getByText('Read this').closest('.message')!
    expect(within(sent as HTMLElement).getByText('plan.md')).toBeTruthy()
  })

  it('refuses a file it cannot send with a specific message, adding nothing', async () => {
    await openChat()
    await pick([new File(['MZ'], 'setup.exe', { type: 'application/x-msdownload' })])
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('“setup.exe” cannot be attached: Cairn reads images (PNG, JPEG, GIF, WebP), PDFs, and text or code files.'))
    expect(composerChips()).toEqual([])
  })

  it('attaches an image pasted from the clipboard', async () => {
    await openChat()
    const box = screen.getByRole('textbox', { name: 'Message' })
    await act(async () => {
      fireEvent.paste(box, { clipboardData: { files: [new File([new Uint8Array(PNG_BYTES)], 'image.png', { type: 'image/png' })], types: ['Files'], getData: () => '' } })
    })
    await waitFor(() => expect(composerChips()).toEqual(['image.pngImage · 8 B']))
  })

  it('attaches files dropped anywhere on the window, showing where they go while dragged', async () => {
    await openChat()
    const dataTransfer = { files: [new File(['a,b\n1,2'], 'table.csv', { type: 'text/csv' })], types: ['Files'] }
    act(() => {
      fireEvent.dragOver(document.body, { dataTransfer })
    })
    expect(screen.getByText('Drop files to attach them')).toBeTruthy()
    await act(async () => {
      fireEvent.drop(document.body, { dataTransfer })
    })
    await waitFor(() => expect(composerChips()).toEqual(['table.csvText · 7 B']))
    expect(screen.queryByText('Drop files to attach them')).toBeNull()
  })

  it('gives the files back when the message could not be sent', async () => {
    await openChat({
      'chat.send': () => {
        throw new FakeFailure('ATTACHMENT', '"scan.pdf" could not be read as a PDF (Invalid PDF structure).', { code: 'unreadable_pdf', name: 'scan.pdf', reason: 'Invalid PDF structure' })
      }
    })
    await pick([new File(['%PDF-1.4 broken'], 'scan.pdf', { type: 'application/pdf' })])
    await waitFor(() => expect(composerChips()).toEqual(['scan.pdfPDF · 15 B']))
    await typeAndSend('Summarise')
    await waitFor(() => expect(composerChips()).toEqual(['scan.pdfPDF · 15 B']))
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe('Summarise')
    expect(screen.getByText('“scan.pdf” could not be read as a PDF.')).toBeTruthy()
  })
})

describe('attachments on sent messages', () => {
  it('shows each stored file as a chip above the words, with the cut stated', async () => {
    await openChat({}, [
      message('user', 'What is in these?', {
        attachments: [
          { name: 'report.pdf', kind: 'pdf', mime: 'application/pdf', size: 2_400_000, textChars: 100_000, truncated: true },
          { name: 'photo.jpg', kind: 'image', mime: 'image/jpeg', size: 52_000, textChars: null, truncated: false }
        ]
      })
    ])
    const row = screen.getByText('What is in these?').closest('.message') as HTMLElement
    const chips = within(row).getAllByRole('listitem')
    expect(chips.map((chip) => chip.textContent)).toEqual(['report.pdfPDF · 2.3 MB', 'photo.jpgImage · 51 KB'])
    expect(chips[0].getAttribute('title')).toBe('Only the first 100000 characters were sent.')
    expect(within(row).queryByRole('button', { name: /Remove/ })).toBeNull()
  })
})
