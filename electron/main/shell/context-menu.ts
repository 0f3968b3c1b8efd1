import type { MenuItemConstructorOptions } from 'electron'
import type { Translate } from '../../../shared/i18n'

/** The part of Electron's `ContextMenuParams` the text context menu reads. */
export interface ContextMenuFacts {
  isEditable: boolean
  selectionText: string
  linkURL: string
  misspelledWord: string
  dictionarySuggestions: string[]
  editFlags: {
    canUndo: boolean
    canRedo: boolean
    canCut: boolean
    canCopy: boolean
    canPaste: boolean
    canSelectAll: boolean
  }
}

export interface ContextMenuActions {
  replaceMisspelling(word: string): void
  addToDictionary?(word: string): void
  copyLink?(url: string): void
}

const SUGGESTION_LIMIT = 5
const COPYABLE_LINK_PROTOCOLS = new Set(['http:', 'https:'])

/**
 * The right-click menu for text: spelling fixes and editing in a field, Copy for a selection, Copy link address on a link.
 * Returns [] when nothing applies, so the caller shows no menu at all rather than an empty one.
 */
export function contextMenuTemplate(params: ContextMenuFacts, t: Translate, actions: ContextMenuActions): MenuItemConstructorOptions[] {
  const groups = params.isEditable
    ? [spellingItems(params, t, actions), linkItems(params, t, actions), ...editingGroups(params, t)]
    : [linkItems(params, t, actions), selectionItems(params, t)]
  return joinWithSeparators(groups)
}

function spellingItems(params: ContextMenuFacts, t: Translate, actions: ContextMenuActions): MenuItemConstructorOptions[] {
  const word = params.misspelledWord
  if (!word) return []
  const suggestions: MenuItemConstructorOptions[] = params.dictionarySuggestions
    .slice(0, SUGGESTION_LIMIT)
    .map((suggestion) => ({ label: suggestion, click: () => actions.replaceMisspelling(suggestion) }))
  const fallback: MenuItemConstructorOptions[] = suggestions.length ? [] : [{ label: t('menu.spelling.none'), enabled: false }]
  const addToDictionary = actions.addToDictionary
  const learn: MenuItemConstructorOptions[] = addToDictionary ? [{ label: t('menu.spelling.add'), click: () => addToDictionary(word) }] : []
  return [...suggestions, ...fallback, ...learn]
}

/** Undo/redo, clipboard, select all: each enabled only when the field says it can. */
function editingGroups(params: ContextMenuFacts, t: Translate): MenuItemConstructorOptions[][] {
  const flags = params.editFlags
  return [
    [
      { role: 'undo', label: t('menu.undo'), enabled: flags.canUndo },
      { role: 'redo', label: t('menu.redo'), enabled: flags.canRedo }
    ],
    [
      { role: 'cut', label: t('menu.cut'), enabled: flags.canCut },
      { role: 'copy', label: t('menu.copy'), enabled: flags.canCopy },
      { role: 'paste', label: t('menu.paste'), enabled: flags.canPaste }
    ],
    [{ role: 'selectAll', label: t('menu.selectAll'), enabled: flags.canSelectAll }]
  ]
}

function selectionItems(params: ContextMenuFacts, t: Translate): MenuItemConstructorOptions[] {
  return params.selectionText.trim() ? [{ role: 'copy', label: t('menu.copy') }] : []
}

/** Only web links: copying a `javascript:` or `file:` URL would hand the user something that is not an address. */
function linkItems(params: ContextMenuFacts, t: Translate, actions: ContextMenuActions): MenuItemConstructorOptions[] {
  const copyLink = actions.copyLink
  if (!copyLink || !isWebLink(params.linkURL)) return []
  const url = params.linkURL
  return [{ label: t('menu.copyLink'), click: () => copyLink(url) }]
}

function isWebLink(url: string): boolean {
  if (!url) return false
  try {
    return COPYABLE_LINK_PROTOCOLS.has(new URL(url).protocol)
  } catch {
    return false // not a URL at all
  }
}

/** One separator between non-empty groups: never leading, trailing or doubled. */
function joinWithSeparators(groups: MenuItemConstructorOptions[][]): MenuItemConstructorOptions[] {
  return groups
    .filter((group) => group.length > 0)
    .flatMap((group, index) => (index === 0 ? group : [{ type: 'separator' } satisfies MenuItemConstructorOptions, ...group]))
}
