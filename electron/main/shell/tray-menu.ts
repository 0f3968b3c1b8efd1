import { basename, dirname } from 'node:path'
import { ellipsize } from '../../core/text/cut'
import type { MenuItemConstructorOptions } from 'electron'
import type { LedgerEntry } from '../../../shared/ledger'

export interface TrayState {
  learningEnabled: boolean
  /** Newest first; the menu shows at most five. */
  recent: LedgerEntry[]
  /** The quick-prompt shortcut as registered, or null. */
  shortcut: string | null
  /** Why the shortcut is not working, for the tooltip and the menu. */
  shortcutProblem: string | null
}

export interface TrayActions {
  quickPrompt(): void
  openMain(): void
  openLedgerEntry(id: number): void
  setLearningPaused(paused: boolean): void
  quit(): void
}

const RECENT_LIMIT = 5
const LABEL_WIDTH = 48

export function trayMenuTemplate(state: TrayState, actions: TrayActions, platform: NodeJS.Platform = process.platform): MenuItemConstructorOptions[] {
  const recent = state.recent.slice(0, RECENT_LIMIT)
  const recentItems: MenuItemConstructorOptions[] = recent.length
    ? recent.map((entry) => ({ label: menuText(ledgerLabel(entry), platform), click: () => actions.openLedgerEntry(entry.id) }))
    : [{ label: 'Nothing learned yet', enabled: false }]
  return [
    {
      label: 'Quick prompt',
      ...(state.shortcut && !state.shortcutProblem ? { accelerator: state.shortcut, registerAccelerator: false } : {}),
      click: () => actions.quickPrompt()
    },
    { label: 'Open Cairn', click: () => actions.openMain() },
    ...(state.shortcutProblem ? [{ label: menuText(state.shortcutProblem, platform), enabled: false } satisfies MenuItemConstructorOptions] : []),
    { type: 'separator' },
    { label: 'Recently learned', submenu: recentItems },
    {
      label: 'Pause learning',
      type: 'checkbox',
      checked: !state.learningEnabled,
      click: (item) => actions.setLearningPaused(item.checked)
    },
    { type: 'separator' },
    { label: 'Quit Cairn', click: () => actions.quit() }
  ]
}

export function trayTooltip(state: TrayState): string {
  const lines = ['Cairn']
  if (!state.learningEnabled) lines.push('Learning is paused')
  if (state.shortcutProblem) lines.push(state.shortcutProblem)
  else if (state.shortcut) lines.push(`Quick prompt: ${state.shortcut}`)
  return lines.join('\n')
}

/** One short line for a learned change, e.g. `Memory + "prefers pnpm over npm"` or `Skill "deploy" updated`. */
export function ledgerLabel(entry: LedgerEntry): string {
  const prefix = entry.source === 'revert' ? 'Undo: ' : ''
  if (entry.kind.startsWith('memory.')) {
    const store = basename(entry.target) === 'USER.md' ? 'Profile' : 'Memory'
    const sign = entry.kind === 'memory.add' ? '+' : entry.kind === 'memory.remove' ? '−' : '~'
    const text = entry.kind === 'memory.remove' ? entry.before : entry.after
    return `${prefix}${store} ${sign} "${shorten(text ?? '', LABEL_WIDTH - store.length - 6)}"`
  }
  const skill = typeof entry.meta.skill === 'string' ? entry.meta.skill : basename(dirname(entry.target))
  const name = `Skill "${shorten(skill, 28)}"`
  switch (entry.kind) {
    case 'skill.create':
      return `${prefix}${name} created`
    case 'skill.delete':
      return `${prefix}${name} deleted`
    case 'skill.file_write':
      return `${prefix}${name}: ${shorten(basename(entry.target), 20)} written`
    case 'skill.file_remove':
      return `${prefix}${name}: ${shorten(basename(entry.target), 20)} removed`
    default:
      return `${prefix}${name} updated`
  }
}

function shorten(text: string, width: number): string {
  return ellipsize(text, Math.max(2, width))
}

/** Windows reads `&` in a menu label as a mnemonic marker. */
function menuText(text: string, platform: NodeJS.Platform): string {
  return platform === 'win32' ? text.replace(/&/g, '&&') : text
}
