import { createHash } from 'node:crypto'
import { attachmentKindOf, checkAttachmentList } from '../../../shared/attachments'
import { AttachmentReadError, capText, decodeText, pdfText } from './extract-text'
import { AttachmentError, type AttachmentInput, type PreparedAttachment } from './types'

/** Longest file name kept (a name is only shown; the stored copy is named by its hash). */
const MAX_NAME_CHARS = 200

/**
 * Checks and reads the files of one message: count, kinds and sizes first (all of them, before any
 * is read), then text decoding and PDF extraction.
 * The first problem throws an AttachmentError before anything is stored or sent.
 */
export async function readAttachments(inputs: AttachmentInput[]): Promise<PreparedAttachment[]> {
  const problem = checkAttachmentList(inputs.map((input) => ({ name: displayName(input.name), mime: input.mime, size: input.bytes.byteLength })))
  if (problem) throw new AttachmentError(problem)
  const prepared: PreparedAttachment[] = []
  for (const input of inputs) prepared.push(await readOne(input))
  return prepared
}

async function readOne(input: AttachmentInput): Promise<PreparedAttachment> {
  const name = displayName(input.name)
  const known = attachmentKindOf(name, input.mime)
  if (!known) throw new AttachmentError({ code: 'unsupported', name }) // checkAttachmentList refused it already
  const sha256 = createHash('sha256').update(input.bytes).digest('hex')
  const base = { name, kind: known.kind, mime: known.mime, bytes: input.bytes, sha256 }
  if (known.kind === 'image') return { ...base, text: null, fullChars: 0 }
  try {
    const raw = known.kind === 'pdf' ? await pdfText(input.bytes) : decodeText(input.bytes)
    const { text, fullChars } = capText(raw)
    return { ...base, text, fullChars }
  } catch (error) {
    if (!(error instanceof AttachmentReadError)) throw error
    if (error.reason === 'not_text') throw new AttachmentError({ code: 'not_text', name })
    throw new AttachmentError({ code: 'unreadable_pdf', name, reason: error.message })
  }
}

/** The file's own name without any folder, control characters or excess length. */
function displayName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim()
  return (base || 'attachment').slice(0, MAX_NAME_CHARS)
}
