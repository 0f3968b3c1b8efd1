import type { ApprovalRequest } from '../agent-events'
import { describeReviewError, describeReviewFailure } from './describe-review-failure'
import { prefixLabelKey } from '../command-prefix'
import { isErrorKey } from '../error-keys'
import type { ProviderPreset } from '../config'
import type { IpcErrorParams } from '../ipc/define'
import { visibleMcpName } from '../mcp'
import type { ConnectionTest, ConnectionTestCode, ProviderProblem, ProviderProblemCode } from '../ipc/domain'
import type { RevertErrorCode } from '../ledger'
import type { ReviewSummary, StoreChanges } from '../review-outcome'
import type { ReviewsPausedReason } from '../review-protocol'
import type { ReviewReason } from '../review-reasons'
import { describeWorkspaceProblem } from './describe-workspace'
import type { MessageKey, Translate } from './index'
import { attachmentProblemOf, describeAttachmentProblem } from './describe-attachments'
import { describeNamedTurnError } from './describe-turn-failure'

/**
 * Words for what the core reports as data, shared by every face (renderer, CLI, tray) so each says
 * the same thing in the user's language.
 */

/** One line about what a review saved, e.g. `Memory updated · Skill "deploy" created`; null if it saved nothing. */
export function describeReviewSummary(summary: ReviewSummary, t: Translate): string | null {
  if (!summary.saved) return null
  const parts: string[] = []
  if (touched(summary.memory)) parts.push(t('review.memory'))
  if (touched(summary.user)) parts.push(t('review.user'))
  if (summary.project && touched(summary.project)) parts.push(t('review.project'))
  for (const skill of summary.skills) parts.push(t(`review.skill.${skill.verb}`, { name: skill.name }))
  return parts.length ? parts.join(t('review.separator')) : null
}

function touched(changes: StoreChanges): boolean {
  return changes.added + changes.replaced + changes.removed > 0
}

/** Why a review ran, in the user's language; a reason this version does not know is shown as written. */
export function describeReviewReason(parsed: ReviewReason, t: Translate): string {
  switch (parsed.code) {
    case 'memory_interval':
    case 'skill_interval':
    case 'long_task':
      return t(`reason.${parsed.code}`, { count: parsed.count })
    case 'error_overcome':
      return t('reason.error_overcome', { tool: parsed.tool })
    case 'compression':
      return parsed.part !== null && parsed.parts !== null ? t('reason.compressionPart', { part: parsed.part, parts: parsed.parts }) : t('reason.compression')
    case 'session_end':
      return t(`reason.session_end.${parsed.cause}`, { turns: parsed.turns })
    case 'other':
      return parsed.text
    default:
      return t(`reason.${parsed.code}`)
  }
}

/** Why background learning is paused, in the user's language. */
export function describePauseReason(reason: ReviewsPausedReason, t: Translate): string {
  if (reason.code !== 'failures') return t('learning.paused.requested')
  const latest = reason.latestFailure ? describeReviewFailure(reason.latestFailure, t) : describeReviewError(reason.latest, t)
  return t('learning.paused.failures', { count: reason.count, latest })
}

/** What a connection test found, e.g. `Connected to https://…: 3 models available.` */
export function describeConnectionTest(test: ConnectionTest, t: Translate): string {
  const key: MessageKey = `connection.${test.code}`
  return t(key, { baseURL: test.baseURL, count: test.models.length, model: test.model ?? '', status: test.status ?? '?' })
}

/** A failure in the user's language, and the core's English underneath when it carries specifics (an HTTP status, the provider's own words). */
export interface WordedFailure {
  text: string
  detail: string | null
}

import { describeProviderProblem } from './describe-provider'
export { describeProviderProblem, describeProviderProblemEverywhere } from './describe-provider'

// Lists of codes as records, so a code added to the contract fails to compile here (and no zod comes along).
const problemCodes: Record<ProviderProblemCode, true> = { no_url: true, no_model: true, no_key: true }
const presets: Record<ProviderPreset, true> = { openai: true, openrouter: true, ollama: true, lmstudio: true, custom: true }

/** The provider problem a `PROVIDER` request error carries in its params; null when they name none this version knows. */
export function providerProblemOf(params: IpcErrorParams | null | undefined): ProviderProblem | null {
  const code = params?.problem
  if (typeof code !== 'string' || !Object.hasOwn(problemCodes, code)) return null
  const preset = typeof params?.preset === 'string' && Object.hasOwn(presets, params.preset) ? (params.preset as ProviderPreset) : 'custom'
  return { code: code as ProviderProblemCode, preset, baseURL: typeof params?.baseURL === 'string' ? params.baseURL : '' }
}

/**
 * Codes of a failed turn (the provider's, and the agent's own), each with whether its English message
 * adds specifics worth showing under the translation (a status, an address, the provider's words).
 */
const turnErrorDetail: Record<Exclude<ConnectionTestCode, 'connected' | 'model_missing'> | 'session_deleted' | 'compression_failed' | 'version_condensed' | 'internal', boolean> = {
  not_configured: false,
  auth: true,
  model_not_found: true,
  unreachable: true,
  timeout: true,
  rate_limited: true,
  server: true,
  bad_request: true,
  images_unsupported: false,
  stream_cut: true,
  bad_response: true,
  cancelled: false,
  session_deleted: false,
  compression_failed: true,
  version_condensed: false,
  internal: true
}
type TurnErrorCode = keyof typeof turnErrorDetail

/**
 * A failed turn (an `error` event) or a refused chat request, from its code: a provider problem from
 * its params, a known code in the user's language (with the English message as the detail where it
 * names specifics); anything else as the core wrote it.
 */
export function describeTurnError(error: { code: string; message: string; params?: IpcErrorParams | null; key?: string | null }, t: Translate): WordedFailure {
  if (error.code === 'PROVIDER') {
    const problem = providerProblemOf(error.params)
    return problem ? { text: describeProviderProblem(problem, t), detail: null } : { text: error.message, detail: null }
  }
  // The folder a new conversation was to work in was refused (say, agent.workspace names the app's own folder).
  if (error.code === 'VERSION_CONDENSED') return { text: t('turnError.version_condensed'), detail: null }
  if (isErrorKey(error.key)) return { text: t(`error.${error.key}`, error.params ?? undefined), detail: null }
  if (error.code === 'ATTACHMENT') {
    const problem = attachmentProblemOf(error.params)
    return { text: problem ? describeAttachmentProblem(problem, t) : error.message, detail: null }
  }
  if (error.code === 'WORKSPACE') return { text: describeWorkspaceProblem(error.params, t) ?? error.message, detail: null }
  if (!Object.hasOwn(turnErrorDetail, error.code)) return { text: error.message, detail: null }
  const code = error.code as TurnErrorCode
  const detail = turnErrorDetail[code] && error.message.trim() ? error.message : null
  return { text: describeNamedTurnError(error, t) ?? t(`turnError.${code}`), detail }
}

/** A revert or restore refusal as main gives it: a code the faces word, or its key and figures, and its English. */
export interface RevertRefusal {
  code?: RevertErrorCode | null
  key?: string | null
  params?: Record<string, string | number> | null
  error: string
}

/** Why a revert was refused; one without a code is explained by its key's words (its English from an older main). */
export function describeRevertFailure(failure: RevertRefusal, t: Translate): WordedFailure {
  if (failure.code) return { text: t(`timeline.revertError.${failure.code}`), detail: null }
  return { text: t('timeline.revertError.other'), detail: revertRefusalDetail(failure, t) }
}

/** The refusal's own words, in the window's language when it carries a key. */
export function revertRefusalDetail(failure: RevertRefusal, t: Translate): string | null {
  if (isErrorKey(failure.key)) return t(`error.${failure.key}`, failure.params ?? undefined)
  return failure.error || null
}

/**
 * The title of an approval request, worded from its data: the command and its folder, or the file
 * and what the write does (lines added and removed when the preview is a whole diff).
 */
export function describeApproval(
  request: Pick<ApprovalRequest, 'kind' | 'tool' | 'command' | 'cwd' | 'path' | 'preview' | 'host' | 'url' | 'server' | 'mcpTool' | 'learn'>,
  t: Translate
): string {
  if (request.kind === 'learn' && request.learn) {
    const { cause, skill, store, removes } = request.learn
    return t(removes ? `approval.learn.${cause}.remove` : `approval.learn.${cause}`, { name: skill ?? '', store: store ? t(`memory.${store}.title`) : '' })
  }
  if (request.kind === 'mcp') return t('approval.mcpUse', { tool: visibleMcpName(request.mcpTool ?? request.tool), server: visibleMcpName(request.server ?? '') })
  if (request.kind === 'read') {
    const path = request.path ?? ''
    return t(request.tool === 'list_dir' ? 'approval.listDir' : request.tool === 'search_files' ? 'approval.searchIn' : 'approval.readFile', { path })
  }
  if (request.kind === 'fetch') return t('approval.fetchFrom', { host: request.host ?? hostOf(request.url ?? '') })
  if (request.kind === 'command') {
    const lines = (request.command ?? '').trim().split('\n')
    const command = ellipsis(lines[0], 120) + (lines.length > 1 ? ' …' : '')
    return request.cwd ? t('approval.run', { command, cwd: request.cwd }) : t('approval.runHere', { command })
  }
  const name = baseName(request.path ?? '')
  const diff = request.preview && isDiffOf(request.preview, name) ? request.preview : null
  const counts = diff ? diffLineCounts(diff) : null
  if (request.tool === 'edit_file') return counts ? t('approval.editLines', { name, ...counts }) : t('approval.edit', { name })
  if (diff) return counts ? t('approval.overwriteLines', { name, ...counts }) : t('approval.overwrite', { name })
  return t('approval.writeFile', { name })
}

/** The heading of an approval card: what kind of thing Cairn wants to do. */
export function describeApprovalKind(kind: ApprovalRequest['kind'], t: Translate): string {
  return t(`approval.${kind}`)
}

/**
 * The "always allow" a request offers, worded with exactly what it grants (the prefix, the folder,
 * the host), or null when it offers none (a write, or a fetch that carries data read this turn).
 */
export function describeAlwaysAllow(
  request: Pick<ApprovalRequest, 'kind' | 'scopes' | 'folder' | 'host' | 'server' | 'mcpTool'> & { prefix?: string },
  t: Translate
): { scope: 'prefix' | 'folder' | 'host' | 'tool'; label: string } | null {
  const offered = (scope: 'prefix' | 'folder' | 'host' | 'tool') => (request.scopes ? request.scopes.includes(scope) : scope === 'prefix')
  // Worded by what the prefix grants (see shared/command-prefix.ts): "without options that write files…", "exactly…".
  if (request.kind === 'command' && request.prefix && offered('prefix')) return { scope: 'prefix', label: t(prefixLabelKey(request.prefix), { prefix: request.prefix }) }
  if (request.kind === 'read' && request.folder && offered('folder')) return { scope: 'folder', label: t('approval.allowFolder', { folder: request.folder }) }
  if (request.kind === 'fetch' && request.host && offered('host')) return { scope: 'host', label: t('approval.allowHost', { host: request.host }) }
  if (request.kind === 'mcp' && request.mcpTool && offered('tool')) return { scope: 'tool', label: t('approval.allowMcpTool', { tool: visibleMcpName(request.mcpTool), server: visibleMcpName(request.server ?? '') }) }
  return null
}

/** A command's "this conversation" says what its prefix grants, in the words of its "always" (shared/command-prefix.ts). */
const sessionPrefixKeys: Record<ReturnType<typeof prefixLabelKey>, MessageKey> = {
  'approval.allowPrefix': 'approval.allowPrefixSession',
  'approval.allowPrefixArgs': 'approval.allowPrefixArgsSession',
  'approval.allowPrefixExact': 'approval.allowPrefixExactSession'
}

/**
 * The "allow for this conversation" a request offers, worded with what it grants: a command's prefix
 * (under the same rule as "always"), the file read or the folder and everything in it, the host; or
 * null when it offers none (a command without a usable prefix or run outside the workspace, a fetch
 * that carries data read this turn).
 */
export function describeSessionAllow(
  request: Pick<ApprovalRequest, 'kind' | 'scopes' | 'readsFolder' | 'host' | 'mcpTool'> & { prefix?: string },
  t: Translate
): string | null {
  if (request.scopes && !request.scopes.includes('session')) return null
  if (request.kind === 'command') return request.prefix ? t(sessionPrefixKeys[prefixLabelKey(request.prefix)], { prefix: request.prefix }) : null
  if (request.kind === 'read') return t(request.readsFolder ? 'approval.allowFolderSession' : 'approval.allowFileSession')
  if (request.kind === 'fetch' && request.host) return t('approval.allowHostSession', { host: request.host })
  if (request.kind === 'mcp' && request.mcpTool) return t('approval.allowMcpToolSession', { tool: visibleMcpName(request.mcpTool) })
  return t('approval.allowSession')
}

/** Why a fetch asks every time: the address carries text read this turn. */
export function describeCarriedData(request: Pick<ApprovalRequest, 'carriedData' | 'host' | 'url' | 'afterReading'>, t: Translate): string | null {
  if (!request.carriedData) return request.afterReading ? t('approval.afterReading', { path: request.afterReading, host: request.host ?? hostOf(request.url ?? '') }) : null
  return t('approval.carriesData', { text: ellipsis(request.carriedData, 80), host: request.host ?? hostOf(request.url ?? '') })
}

function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

function ellipsis(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}

function baseName(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean)
  return parts[parts.length - 1] ?? path
}

/** A unified diff of the file itself (`+++ b/…/name`), not new content that merely looks like a diff. */
function isDiffOf(preview: string, name: string): boolean {
  return /^@@ /m.test(preview) && (!name || preview.split('\n', 6).some((line) => line.startsWith('+++ ') && baseName(line.slice(4)) === name))
}

/** Lines added and removed, or null unless every hunk is complete (a preview cut short would undercount). */
function diffLineCounts(diff: string): { added: number; removed: number } | null {
  let added = 0
  let removed = 0
  let oldLeft = 0
  let newLeft = 0
  let hunks = 0
  for (const line of diff.split('\n')) {
    const head = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line)
    if (head) {
      if (oldLeft || newLeft) return null
      oldLeft = Number(head[1] ?? 1)
      newLeft = Number(head[2] ?? 1)
      hunks++
    } else if (oldLeft || newLeft) {
      const mark = line[0]
      if (mark === '+' || mark === ' ') newLeft--
      if (mark === '-' || mark === ' ') oldLeft--
      if (mark === '+') added++
      else if (mark === '-') removed++
      else if (mark !== ' ' && mark !== '\\') return null
      if (oldLeft < 0 || newLeft < 0) return null
    }
  }
  return hunks && !oldLeft && !newLeft ? { added, removed } : null
}
