// What can be attached to a message, and how much. Shared so the composer refuses a file before
// reading it, the contract bounds what crosses the boundary, and the core checks again.

/** Images go to the model as image parts; PDFs and text files as their text. */
export const attachmentKinds = ['image', 'pdf', 'text'] as const
export type AttachmentKind = (typeof attachmentKinds)[number]

export const MAX_ATTACHMENTS = 10
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024
/** PDFs and text or code files. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024
/** All files of one message together (what one request to main may carry). */
export const MAX_TOTAL_ATTACHMENT_BYTES = 50 * 1024 * 1024
/** Text kept from one PDF or text file; the rest is cut (and the model is told where). */
export const MAX_ATTACHMENT_TEXT_CHARS = 100_000

/** The image formats OpenAI-compatible vision models accept. */
const IMAGE_MIMES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' }

/** Text and code files by extension (browsers give many of these an empty or odd mime type). */
const TEXT_EXTENSIONS = new Set(
  (
    'txt md markdown rst org log csv tsv json jsonl yaml yml toml ini cfg conf env xml html htm css scss less svg ' +
    'js mjs cjs jsx ts tsx mts cts vue svelte py rb go rs java kt kts swift c h cc cpp hpp cs m mm php pl lua r ' +
    'sh bash zsh fish ps1 bat sql graphql proto gradle dockerfile makefile cmake tex bib diff patch srt vtt'
  ).split(' ')
)
const TEXT_MIMES = /^(text\/|application\/(json|x-ndjson|xml|yaml|x-yaml|toml|javascript|typescript|x-sh|sql|graphql))/

function extensionOf(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name
  const dot = base.lastIndexOf('.')
  return dot < 0 ? base.toLowerCase() : base.slice(dot + 1).toLowerCase()
}

/** What a file is, from its name and (when the picker knows it) its mime type; null when Cairn cannot read it. */
export function attachmentKindOf(name: string, mime = ''): { kind: AttachmentKind; mime: string } | null {
  const ext = extensionOf(name)
  const given = mime.toLowerCase().split(';')[0].trim()
  if (IMAGE_MIMES[ext]) return { kind: 'image', mime: IMAGE_MIMES[ext] }
  if (Object.values(IMAGE_MIMES).includes(given)) return { kind: 'image', mime: given }
  if (ext === 'pdf' || given === 'application/pdf') return { kind: 'pdf', mime: 'application/pdf' }
  if (TEXT_EXTENSIONS.has(ext) || TEXT_MIMES.test(given)) return { kind: 'text', mime: given || 'text/plain' }
  return null
}

export function maxBytesFor(kind: AttachmentKind): number {
  return kind === 'image' ? MAX_IMAGE_BYTES : MAX_DOCUMENT_BYTES
}

/** Why a file cannot be attached, in English (the CLI and logs); the renderer translates by code. */
export type AttachmentProblem =
  | { code: 'unsupported'; name: string }
  | { code: 'too_large'; name: string; size: number; limit: number }
  | { code: 'too_many'; count: number; limit: number }
  | { code: 'too_large_total'; size: number; limit: number }
  | { code: 'empty'; name: string }
  | { code: 'not_text'; name: string }
  | { code: 'unreadable_pdf'; name: string; reason: string }

const MB = 1024 * 1024

export function formatBytes(bytes: number): string {
  if (bytes >= MB) return `${(bytes / MB).toFixed(bytes >= 10 * MB ? 0 : 1)} MB`
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`
  return `${bytes} B`
}

export function attachmentProblemText(problem: AttachmentProblem): string {
  switch (problem.code) {
    case 'unsupported':
      return `"${problem.name}" cannot be attached: Cairn reads images (PNG, JPEG, GIF, WebP), PDFs, and text or code files.`
    case 'too_large':
      return `"${problem.name}" is ${formatBytes(problem.size)}; the limit for this kind of file is ${formatBytes(problem.limit)}.`
    case 'too_many':
      return `${problem.count} files attached; a message takes at most ${problem.limit}.`
    case 'too_large_total':
      return `The attached files add up to ${formatBytes(problem.size)}; one message takes at most ${formatBytes(problem.limit)}.`
    case 'empty':
      return `"${problem.name}" is empty.`
    case 'not_text':
      return `"${problem.name}" does not hold readable text (UTF-8). Attach it as a PDF or an image instead.`
    case 'unreadable_pdf':
      return `"${problem.name}" could not be read as a PDF (${problem.reason}).`
  }
}

/** The first problem with a set of files known by name, type and size (before reading their bytes). */
export function checkAttachmentList(files: Array<{ name: string; mime?: string; size: number }>): AttachmentProblem | null {
  if (files.length > MAX_ATTACHMENTS) return { code: 'too_many', count: files.length, limit: MAX_ATTACHMENTS }
  for (const file of files) {
    const known = attachmentKindOf(file.name, file.mime)
    if (!known) return { code: 'unsupported', name: file.name }
    if (file.size === 0) return { code: 'empty', name: file.name }
    const limit = maxBytesFor(known.kind)
    if (file.size > limit) return { code: 'too_large', name: file.name, size: file.size, limit }
  }
  const total = files.reduce((sum, file) => sum + file.size, 0)
  if (total > MAX_TOTAL_ATTACHMENT_BYTES) return { code: 'too_large_total', size: total, limit: MAX_TOTAL_ATTACHMENT_BYTES }
  return null
}
