/** English words for attachments: the composer's chips, its file picker and drop zone, and refused files. Part of `en.ts`. */
export const enAttachments = {
  'attachments.attach': 'Attach files',
  'attachments.attachHint': 'Attach images, PDFs or text files (you can also paste or drop them)',
  'attachments.remove': 'Remove {name}',
  'attachments.dropHere': 'Drop files to attach them',
  'attachments.listLabel': 'Attached files',
  'attachments.kind.image': 'Image',
  'attachments.kind.pdf': 'PDF',
  'attachments.kind.text': 'Text',
  'attachments.cut': 'Only the first {chars} characters were sent.',
  'attachments.problem.unsupported': '“{name}” cannot be attached: Cairn reads images (PNG, JPEG, GIF, WebP), PDFs, and text or code files.',
  'attachments.problem.too_large': '“{name}” is {size}; the limit for this kind of file is {limit}.',
  'attachments.problem.too_large_total': 'The attached files add up to {size}; one message takes at most {limit}.',
  'attachments.problem.too_many': 'A message takes at most {limit} files.',
  'attachments.problem.empty': '“{name}” is empty.',
  'attachments.problem.not_text': '“{name}” does not hold readable text (UTF-8). Attach it as a PDF or an image instead.',
  'attachments.problem.unreadable_pdf': '“{name}” could not be read as a PDF.',
  'attachments.problem.unreadable_file': '“{name}” could not be read from disk.',
  'connection.images_unsupported': 'The model at {baseURL} does not take images (HTTP {status}).',
  'turnError.images_unsupported': 'This model does not take images. Choose a model that reads images, or send the message without them.'
} as const
