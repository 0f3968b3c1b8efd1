import { formatBytes, type AttachmentProblem } from '../attachments'
import type { IpcErrorParams } from '../ipc/define'
import type { Translate } from './index'

const problemCodes = new Set<AttachmentProblem['code']>(['unsupported', 'too_large', 'too_large_total', 'too_many', 'empty', 'not_text', 'unreadable_pdf'])

/** Why a file could not be attached, in the user's language. */
export function describeAttachmentProblem(problem: AttachmentProblem | { code: 'unreadable_file'; name: string }, t: Translate): string {
  switch (problem.code) {
    case 'too_large':
      return t('attachments.problem.too_large', { name: problem.name, size: formatBytes(problem.size), limit: formatBytes(problem.limit) })
    case 'too_large_total':
      return t('attachments.problem.too_large_total', { size: formatBytes(problem.size), limit: formatBytes(problem.limit) })
    case 'too_many':
      return t('attachments.problem.too_many', { limit: problem.limit })
    default:
      return t(`attachments.problem.${problem.code}`, { name: problem.name })
  }
}

/** The problem an `ATTACHMENT` error from main carries in its params, or null when they do not hold one. */
export function attachmentProblemOf(params: IpcErrorParams | null | undefined): AttachmentProblem | null {
  const code = params?.code
  return typeof code === 'string' && problemCodes.has(code as AttachmentProblem['code']) ? (params as unknown as AttachmentProblem) : null
}
