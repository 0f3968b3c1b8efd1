import type { MessageKey } from '../../../shared/i18n'

/** What a window-wide shortcut does; `useGlobalKeys` runs these. */
export type ShortcutAction = 'newChat' | 'newIncognitoChat' | 'search' | 'sidebar' | 'settings' | 'help' | 'copyAnswer' | 'back' | 'forward' | 'promptLibrary'

export interface Shortcut {
  /** Alternatives, each written like an accelerator: "Mod+Shift+C" (Mod is ⌘ on a Mac, Ctrl elsewhere), "?", "Esc". */
  keys: string[]
  label: MessageKey
  /** Set for the window-wide shortcuts handled from this list; the rest are handled where they apply and only listed. */
  action?: ShortcutAction
  /** A single key that must not fire while the user types in a field. */
  notWhileTyping?: boolean
}

export interface ShortcutGroup {
  title: MessageKey
  shortcuts: Shortcut[]
}

/**
 * Every shortcut the main window knows, in the order the help dialog lists them. The handlers read
 * the window-wide ones from here too, so the help and the keys cannot drift apart.
 */
export const shortcutGroups: ShortcutGroup[] = [
  {
    title: 'shortcuts.group.general',
    shortcuts: [
      { keys: ['Mod+N'], label: 'shortcuts.newChat', action: 'newChat' },
      { keys: ['Mod+Shift+N'], label: 'shortcuts.newIncognitoChat', action: 'newIncognitoChat' },
      { keys: ['Mod+K'], label: 'shortcuts.search', action: 'search' },
      { keys: ['Mod+B'], label: 'shortcuts.sidebar', action: 'sidebar' },
      { keys: ['Mod+,'], label: 'shortcuts.settings', action: 'settings' },
      { keys: ['?', 'Mod+/'], label: 'shortcuts.help', action: 'help', notWhileTyping: true },
      // Outside text fields only: there Alt+← moves by word on a Mac.
      { keys: ['Alt+ArrowLeft', 'Mod+['], label: 'shortcuts.back', action: 'back', notWhileTyping: true },
      { keys: ['Alt+ArrowRight', 'Mod+]'], label: 'shortcuts.forward', action: 'forward', notWhileTyping: true },
      { keys: ['Esc'], label: 'shortcuts.closeDialog' }
    ]
  },
  {
    title: 'shortcuts.group.chat',
    shortcuts: [
      { keys: ['Enter'], label: 'shortcuts.send' },
      { keys: ['Shift+Enter'], label: 'shortcuts.newline' },
      { keys: ['↑'], label: 'shortcuts.editLast' },
      { keys: ['/'], label: 'shortcuts.mcpPrompts' },
      { keys: ['Mod+Shift+L'], label: 'shortcuts.promptLibrary', action: 'promptLibrary' },
      { keys: ['Mod+Shift+C'], label: 'shortcuts.copyAnswer', action: 'copyAnswer' },
      { keys: ['Esc'], label: 'shortcuts.stop' }
    ]
  },
  {
    title: 'shortcuts.group.approval',
    shortcuts: [
      { keys: ['Enter'], label: 'shortcuts.allowOnce' },
      { keys: ['Esc'], label: 'shortcuts.deny' }
    ]
  },
  {
    title: 'shortcuts.group.inbox',
    shortcuts: [
      { keys: ['J', '↓'], label: 'shortcuts.inboxNext' },
      { keys: ['K', '↑'], label: 'shortcuts.inboxPrevious' },
      { keys: ['A'], label: 'shortcuts.inboxApprove' },
      { keys: ['E'], label: 'shortcuts.inboxEdit' },
      { keys: ['R'], label: 'shortcuts.inboxReject' },
      { keys: ['Mod+Enter'], label: 'shortcuts.saveEdit' }
    ]
  },
  {
    title: 'shortcuts.group.memory',
    shortcuts: [{ keys: ['Mod+Enter'], label: 'shortcuts.memoryAdd' }]
  }
]

/** The global quick-prompt shortcut (set in Settings, an Electron accelerator) as a list entry. */
export function quickPromptShortcut(accelerator: string): Shortcut {
  const keys = accelerator
    .split('+')
    .map((part) => (part === 'CommandOrControl' || part === 'CmdOrCtrl' || part === 'Control' || part === 'Ctrl' || part === 'Command' || part === 'Cmd' ? 'Mod' : part))
    .join('+')
  return { keys: [keys], label: 'shortcuts.quickPrompt' }
}

type KeyEvent = Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>

/** Whether `event` is the key combination `combo` ("Mod+Shift+C", "?"). */
export function matchesCombo(combo: string, event: KeyEvent): boolean {
  // Autofill and some IMEs send keydown events without a key.
  if (typeof event.key !== 'string') return false
  const parts = combo.split('+')
  const key = parts[parts.length - 1]
  const mod = parts.includes('Mod')
  if (event.altKey !== parts.includes('Alt') || (event.ctrlKey || event.metaKey) !== mod) return false
  // A shifted symbol ("?") is its own key; for letters Shift is part of the combination.
  const symbol = !/^[a-z0-9]$/i.test(key)
  if (!symbol && event.shiftKey !== parts.includes('Shift')) return false
  return event.key.toLowerCase() === key.toLowerCase()
}

/** The window-wide action `event` asks for, or null. `typing` is true while focus is in a text field. */
export function shortcutActionFor(event: KeyEvent, typing: boolean): ShortcutAction | null {
  for (const group of shortcutGroups) {
    for (const shortcut of group.shortcuts) {
      if (!shortcut.action) continue
      for (const combo of shortcut.keys) {
        // A plain or Alt key: a letter the user may be typing, or a caret move in a field.
        const single = !combo.includes('Mod+')
        if (single && (typing || shortcut.notWhileTyping !== true)) continue
        if (matchesCombo(combo, event)) return shortcut.action
      }
    }
  }
  return null
}

/** A text field, a select or an editable element: where plain keys belong to the user's typing. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false
  const element = target as HTMLElement
  if (element.isContentEditable) return true
  if (element.tagName === 'TEXTAREA' || element.tagName === 'SELECT') return true
  if (element.tagName !== 'INPUT') return false
  const type = (element as HTMLInputElement).type
  return !['button', 'checkbox', 'radio', 'range', 'submit', 'reset', 'color', 'file'].includes(type)
}

const arrows: Record<string, string> = { ArrowLeft: '←', ArrowRight: '→', ArrowUp: '↑', ArrowDown: '↓' }

/** Key names as this platform writes them: ⌘ ⇧ on a Mac, Ctrl Shift elsewhere. */
export function keyLabels(combo: string, mac: boolean): string[] {
  return combo.split('+').map((part) => {
    if (part === 'Mod') return mac ? '⌘' : 'Ctrl'
    if (part === 'Shift') return mac ? '⇧' : 'Shift'
    if (part === 'Alt') return mac ? '⌥' : 'Alt'
    return arrows[part] ?? part
  })
}

export function isMac(): boolean {
  return typeof navigator !== 'undefined' && /Mac/i.test(navigator.platform)
}
