import type { IpcErrorParams } from '../ipc/define'
import type { WorkspaceProblemCode } from '../ipc/domain'
import type { Translate } from './index'

// The codes as a record, so a code added to the contract fails to compile here (and no zod comes along).
const problems: Record<WorkspaceProblemCode, true> = { not_absolute: true, missing: true, not_folder: true, forbidden: true, cannot_create: true }

/**
 * Why a folder was refused as a conversation's workspace, in the user's language, from the params of a
 * `WORKSPACE` request error; null when they name no problem this version knows (show the English then).
 */
export function describeWorkspaceProblem(params: IpcErrorParams | null | undefined, t: Translate): string | null {
  const code = params?.problem
  if (typeof code !== 'string' || !Object.hasOwn(problems, code)) return null
  const text = (name: string) => (typeof params?.[name] === 'string' ? String(params[name]) : '')
  return t(`workspace.problem.${code as WorkspaceProblemCode}`, { path: text('path'), root: text('root') })
}

/** The last part of a folder's path, as the header shows it (`/home/me/Cairn` → `Cairn`). */
export function folderName(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean)
  return parts[parts.length - 1] ?? path
}
