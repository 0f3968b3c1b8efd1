import { describe, expect, it } from 'vitest'
import { MAX_ATTACHMENT_TEXT_CHARS, MAX_DOCUMENT_BYTES, MAX_IMAGE_BYTES, checkAttachmentList } from '../../../shared/attachments'
import { AttachmentError, readAttachments } from '../../../electron/core/attachments'
import { ONE_PIXEL_PNG, pdfWithText } from '../../helpers/pdf-file'

const utf8 = (text: string) => new TextEncoder().encode(text)

async function problemOf(promise: Promise<unknown>): Promise<AttachmentError> {
  const error = await promise.then(() => null, (e: unknown) => e)
  expect(error).toBeInstanceOf(AttachmentError)
  return error as AttachmentError
}

describe('reading attached files', () => {
  it('extracts the text of a real PDF, page lines kept', async () => {
    const pdf = pdfWithText(['Quarterly report (draft)', 'The aardvark budget grew 12%.'])
    const started = performance.now()
    const [file] = await readAttachments([{ name: 'report.pdf', mime: 'application/pdf', bytes: pdf }])
    const elapsed = performance.now() - started
    expect(file).toMatchObject({ kind: 'pdf', mime: 'application/pdf', text: 'Quarterly report (draft)\nThe aardvark budget grew 12%.' })
    expect(file.sha256).toMatch(/^[0-9a-f]{64}$/)
    // The first PDF loads pdfjs-dist too; even on a busy machine this stays well under a turn's budget.
    expect(elapsed).toBeLessThan(15_000)
  })

  it('reads text and code files as UTF-8, by name when the type is unknown', async () => {
    const files = await readAttachments([
      { name: 'notes.md', bytes: utf8('# Plan\nShip it on Friday.') },
      { name: 'main.rs', mime: '', bytes: utf8('fn main() {}') },
      { name: 'photo.PNG', bytes: ONE_PIXEL_PNG }
    ])
    expect(files.map((f) => [f.kind, f.mime, f.text])).toEqual([
      ['text', 'text/plain', '# Plan\nShip it on Friday.'],
      ['text', 'text/plain', 'fn main() {}'],
      ['image', 'image/png', null]
    ])
  })

  it('cuts a long text at the stated limit and remembers how long it was', async () => {
    const [file] = await readAttachments([{ name: 'big.log', bytes: utf8('x'.repeat(MAX_ATTACHMENT_TEXT_CHARS + 500)) }])
    expect(file.text).toHaveLength(MAX_ATTACHMENT_TEXT_CHARS)
    expect(file.fullChars).toBe(MAX_ATTACHMENT_TEXT_CHARS + 500)
  })

  it('refuses what it cannot read with a specific message, before anything is stored', async () => {
    expect((await problemOf(readAttachments([{ name: 'archive.zip', bytes: utf8('PK') }]))).message).toBe(
      '"archive.zip" cannot be attached: Cairn reads images (PNG, JPEG, GIF, WebP), PDFs, and text or code files.'
    )
    expect((await problemOf(readAttachments([{ name: 'blob.txt', bytes: new Uint8Array([0xff, 0xfe, 0x00, 0x41]) }]))).problem.code).toBe('not_text')
    expect((await problemOf(readAttachments([{ name: 'empty.md', bytes: new Uint8Array() }]))).message).toBe('"empty.md" is empty.')
    const broken = await problemOf(readAttachments([{ name: 'broken.pdf', bytes: utf8('%PDF-1.4 this is not really a pdf') }]))
    expect(broken.problem.code).toBe('unreadable_pdf')
    expect(broken.message).toMatch(/^"broken\.pdf" could not be read as a PDF \(.+\)\.$/)
  })

  it('holds to the size and count limits', async () => {
    const big = await problemOf(readAttachments([{ name: 'huge.png', bytes: new Uint8Array(MAX_IMAGE_BYTES + 1) }]))
    expect(big.message).toBe('"huge.png" is 20 MB; the limit for this kind of file is 20 MB.')
    const doc = await problemOf(readAttachments([{ name: 'huge.md', bytes: new Uint8Array(MAX_DOCUMENT_BYTES + 1).fill(65) }]))
    expect(doc.problem).toEqual({ code: 'too_large', name: 'huge.md', size: MAX_DOCUMENT_BYTES + 1, limit: MAX_DOCUMENT_BYTES })
    const many = Array.from({ length: 11 }, (_, i) => ({ name: `n${i}.txt`, bytes: utf8('hi') }))
    expect((await problemOf(readAttachments(many))).message).toBe('11 files attached; a message takes at most 10.')
    // The same checks run on names and sizes alone, before a face reads the bytes.
    expect(checkAttachmentList([{ name: 'a.pdf', size: MAX_DOCUMENT_BYTES + 1 }])).toMatchObject({ code: 'too_large' })
    expect(checkAttachmentList([{ name: 'a.exe', size: 3 }])).toEqual({ code: 'unsupported', name: 'a.exe' })
  })

  it('keeps only the file name, never a folder the name claims', async () => {
    const [file] = await readAttachments([{ name: '../../etc/passwd.txt', bytes: utf8('root') }])
    expect(file.name).toBe('passwd.txt')
  })
})
