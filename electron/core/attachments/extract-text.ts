import { MAX_ATTACHMENT_TEXT_CHARS } from '../../../shared/attachments'

export class AttachmentReadError extends Error {
  constructor(readonly reason: 'not_text' | 'unreadable_pdf', message: string) {
    super(message)
    this.name = 'AttachmentReadError'
  }
}

/** A text file's contents: UTF-8 (a byte-order mark dropped, CRLF kept as written); anything binary is refused. */
export function decodeText(bytes: Uint8Array): string {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes)
  } catch {
    throw new AttachmentReadError('not_text', 'not UTF-8 text')
  }
  if (text.includes('\u0000')) throw new AttachmentReadError('not_text', 'binary data')
  return text
}

// pdfjs-dist is ESM and large: loaded on the first PDF only, so `cairn` starts as fast without one.
type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs')
let pdfjs: Promise<PdfJs> | null = null

/** The text of every page, pages separated by a blank line, lines as the PDF breaks them. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs')
  const { getDocument } = await pdfjs
  // pdfjs takes ownership of (detaches) the buffer it is given: hand it a copy.
  const task = getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, useSystemFonts: false, verbosity: 0 })
  try {
    const document = await task.promise
    const pages: string[] = []
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number)
      const content = await page.getTextContent()
      let text = ''
      for (const item of content.items) {
        if (!('str' in item)) continue
        text += item.str + (item.hasEOL ? '\n' : '')
      }
      pages.push(text.trim())
      page.cleanup()
    }
    return pages.join('\n\n').trim()
  } catch (error) {
    throw new AttachmentReadError('unreadable_pdf', error instanceof Error ? error.message : String(error))
  } finally {
    await task.destroy()
  }
}

/** At most MAX_ATTACHMENT_TEXT_CHARS of the text, and how long it was before the cut. */
export function capText(text: string): { text: string; fullChars: number } {
  if (text.length <= MAX_ATTACHMENT_TEXT_CHARS) return { text, fullChars: text.length }
  return { text: text.slice(0, MAX_ATTACHMENT_TEXT_CHARS), fullChars: text.length }
}
