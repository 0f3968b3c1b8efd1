import type { AttachmentContent, AttachmentMeta } from './types'

const KIND_WORDS = { image: 'image', pdf: 'PDF', text: 'text file' } as const

/**
 * A PDF's or text file's text as the model reads it after the user's words: one delimited block per
 * file, saying what was cut, so the model can tell the user's words from the file's and knows what it
 * did not see.
 */
export function attachmentBlock(content: AttachmentContent): string {
  const { meta } = content
  if (content.kind === 'missing') return `[Attached ${KIND_WORDS[meta.kind]} "${meta.name}": its stored copy is missing, so its contents are not available.]`
  if (content.kind === 'image') return ''
  const cut = meta.fullChars ? `, cut to the first ${content.text.length} of ${meta.fullChars} characters` : ''
  const body = content.text || (meta.kind === 'pdf' ? '(no text found: the PDF may be scanned images)' : '(empty)')
  return `<attached_file name="${quoteName(meta.name)}" kind="${meta.kind}"${cut ? ` note="${cut.slice(2)}"` : ''}>\n${body}\n</attached_file>`
}

/** Names of attachments where their contents are not given (a transcript being summarised). */
export function attachmentNames(metas: AttachmentMeta[]): string {
  return `[Attached: ${metas.map((meta) => `${meta.name} (${KIND_WORDS[meta.kind]})`).join(', ')}]`
}

function quoteName(name: string): string {
  return name.replace(/"/g, "'")
}
