import { basename } from 'node:path'
import { ellipsize } from '../../core/text/cut'
import type { MenuItemConstructorOptions } from 'electron'
import { isArchiveEntry, isMemoryEntry, skillNameOf, type LedgerEntry } from '../../../shared/ledger'
import type { MessageKey, Translate } from '../../../shared/i18n'
import type { ShortcutRefusal } from './shortcut'

export interface TrayState {
  learningEnabled: boolean
  /** Newest first; the menu shows at most five. */
  recent: LedgerEntry[]
  /** The quick-prompt shortcut as registered, or null. */
  shortcut: string | null
  /** Why the shortcut is not working, for the tooltip and the menu. */
  shortcutProblem: ShortcutRefusal | null
  /** Proposals waiting in the Inbox (an item opens it while any wait). */
  pendingProposals?: number
}

export interface TrayActions {
  quickPrompt(): void
  openMain(): void
  openLedgerEntry(id: number): void
  openInbox?(): void
  setLearningPaused(paused: boolean): void
  quit(): void
}

const RECENT_LIMIT = 5
const LABEL_WIDTH = 48

export function trayMenuTemplate(state: TrayState, actions: TrayActions, t: Translate, platform: NodeJS.Platform = process.platform): MenuItemConstructorOptions[] {
  const recent = state.recent.slice(0, RECENT_LIMIT)
  const recentItems: MenuItemConstructorOptions[] = recent.length
    ? recent.map((entry) => ({ label: menuText(ledgerLabel(entry, t), platform), click: () => actions.openLedgerEntry(entry.id) }))
    : [{ label: t('tray.nothingLearned'), enabled: false }]
  return [
    {
      label: t('tray.quickPrompt'),
      ...(state.shortcut && !state.shortcutProblem ? { accelerator: state.shortcut, registerAccelerator: false } : {}),
      click: () => actions.quickPrompt()
    },
    { label: t('tray.open'), click: () => actions.openMain() },
    ...(state.shortcutProblem ? [{ label: menuText(shortcutProblemText(state.shortcutProblem, t), platform), enabled: false } satisfies MenuItemConstructorOptions] : []),
    { type: 'separator' },
    ...inboxItems(state, actions, t),
    { label: t('tray.recent'), submenu: recentItems },
    {
      label: t('tray.pause'),
      type: 'checkbox',
      checked: !state.learningEnabled,
      click: (item) => actions.setLearningPaused(item.checked)
    },
    { type: 'separator' },
    { label: t('tray.quit'), click: () => actions.quit() }
  ]
}

/** "Inbox, 3 waiting", while proposals wait for the user. */
function inboxItems(state: TrayState, actions: TrayActions, t: Translate): MenuItemConstructorOptions[] {
  const count = state.pendingProposals ?? 0
  if (count === 0 || !actions.openInbox) return []
  const open = actions.openInbox
  return [{ label: t('nav.inboxCount', { count }), click: () => open() }]
}

export function trayTooltip(state: TrayState, t: Translate): string {
  const lines = ['Cairn']
  if (!state.learningEnabled) lines.push(t('tray.paused'))
  if (state.pendingProposals) lines.push(t('nav.inboxCount', { count: state.pendingProposals }))
  if (state.shortcutProblem) lines.push(shortcutProblemText(state.shortcutProblem, t))
  else if (state.shortcut) lines.push(t('tray.shortcut', { shortcut: state.shortcut }))
  return lines.join('\n')
}

function shortcutProblemText(problem: ShortcutRefusal, t: Translate): string {
  const key: MessageKey = problem.kept ? `tray.shortcut.${problem.reason}Kept` : `tray.shortcut.${problem.reason}`
  return t(key, { shortcut: problem.requested, kept: problem.kept ?? '' })
}

/** One short line for a learned change, e.g. `Memory + "prefers pnpm over npm"` or `Skill "deploy" updated`. */
export function ledgerLabel(entry: LedgerEntry, t: Translate): string {
  const label = changeLabel(entry, t)
  return entry.source === 'revert' ? t('tray.undo', { change: label }) : label
}

function changeLabel(entry: LedgerEntry, t: Translate): string {
  if (isMemoryEntry(entry)) {
    const store = t(`tray.store.${entry.meta.store}`)
    const sign = entry.kind === 'memory.add' ? '+' : entry.kind === 'memory.remove' ? '−' : '~'
    const text = entry.kind === 'memory.remove' ? entry.before : entry.after
    return t('tray.memoryEntry', { store, sign, text: shorten(text ?? '', LABEL_WIDTH - store.length - 6) })
  }
  if (isArchiveEntry(entry)) {
    const store = t('archive.tray.store')
    const text = entry.kind === 'archive.remove' ? entry.before : entry.after
    return t('tray.memoryEntry', { store, sign: entry.kind === 'archive.add' ? '+' : '−', text: shorten(text ?? '', LABEL_WIDTH - store.length - 6) })
  }
  const name = shorten(skillNameOf(entry), 28)
  const file = shorten(basename(entry.target), 20)
  switch (entry.kind) {
    case 'skill.create':
      return t('review.skill.created', { name })
    case 'skill.delete':
      return t('review.skill.deleted', { name })
    case 'skill.file_write':
      return t('tray.fileWritten', { name, file })
    case 'skill.file_remove':
      return t('tray.fileRemoved', { name, file })
    default:
      return t('review.skill.updated', { name })
  }
}

function shorten(text: string, width: number): string {
  return ellipsize(text, Math.max(2, width))
}

/** Windows reads `&` in a menu label as a mnemonic marker. */
function menuText(text: string, platform: NodeJS.Platform): string {
  return platform === 'win32' ? text.replace(/&/g, '&&') : text
}
