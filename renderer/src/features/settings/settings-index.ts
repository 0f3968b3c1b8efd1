import type { MessageKey, Translate } from '../../../../shared/i18n'
import type { SettingsSection } from '../../stores/ui'

/** One findable setting: the section it lives in, its label as shown there, and the words that describe it. */
export interface SettingsEntry {
  section: SettingsSection
  label: MessageKey
  hint?: MessageKey
  /** Where a jump lands when `label`'s element is not shown in the current state (e.g. sync already set up). */
  fallback?: MessageKey
  /** Shown only in the desktop app (the global shortcut). */
  desktopOnly?: boolean
}

/**
 * The settings the search box finds, by the keys their labels and hints are shown with, so a search
 * matches the words on screen in the current language. A jump lands on the element marked
 * `data-setting="<label>"` (focus-setting.ts).
 */
export const SETTINGS_INDEX: SettingsEntry[] = [
  { section: 'provider', label: 'settings.provider.title', hint: 'settings.provider.lead' },
  { section: 'provider', label: 'settings.provider.preset' },
  { section: 'provider', label: 'settings.provider.baseURL' },
  { section: 'provider', label: 'settings.key.label' },
  { section: 'provider', label: 'settings.provider.model', hint: 'settings.provider.modelHint' },
  { section: 'provider', label: 'settings.instructions.title', hint: 'settings.instructions.lead' },
  { section: 'learning', label: 'settings.learning.title', hint: 'settings.learning.lead' },
  { section: 'learning', label: 'settings.learning.mode' },
  { section: 'learning', label: 'settings.learning.skills', hint: 'settings.learning.skillsHint' },
  { section: 'learning', label: 'settings.learning.memoryInterval', hint: 'settings.learning.intervalHint' },
  { section: 'learning', label: 'settings.learning.skillInterval', hint: 'settings.learning.skillIntervalHint' },
  { section: 'provider', label: 'settings.learningModel.title', hint: 'settings.learningModel.lead' },
  { section: 'learning', label: 'recall.settings.title', hint: 'recall.settings.lead' },
  { section: 'search', label: 'search.title', hint: 'search.lead' },
  { section: 'search', label: 'search.words.title', hint: 'search.words.hint' },
  { section: 'search', label: 'search.meaning.title', hint: 'search.meaning.hint' },
  { section: 'search', label: 'search.meaning.endpoint', hint: 'search.meaning.endpointHint' },
  { section: 'search', label: 'search.meaning.model', hint: 'search.meaning.modelHint' },
  { section: 'tools', label: 'mcp.title', hint: 'mcp.lead' },
  { section: 'tools', label: 'mcp.add' },
  { section: 'data', label: 'backup.title', hint: 'backup.lead' },
  { section: 'data', label: 'backup.schedule' },
  { section: 'data', label: 'backup.folder', hint: 'backup.folderHint' },
  { section: 'data', label: 'import.title', hint: 'import.lead' },
  { section: 'data', label: 'sync.title', hint: 'sync.lead' },
  { section: 'data', label: 'sync.remote', hint: 'sync.remoteHint', fallback: 'sync.title' },
  { section: 'data', label: 'sync.token', hint: 'sync.tokenHint', fallback: 'sync.title' },
  { section: 'appearance', label: 'settings.appearance.theme' },
  { section: 'appearance', label: 'settings.appearance.language' },
  { section: 'appearance', label: 'settings.shortcut.label', hint: 'settings.shortcut.hint', desktopOnly: true },
  { section: 'appearance', label: 'settings.about.title' },
  { section: 'appearance', label: 'settings.about.home' }
]

/** The entries whose label or description (in the current language) holds every word of `query`. */
export function findSettings(query: string, t: Translate, entries: SettingsEntry[] = SETTINGS_INDEX): SettingsEntry[] {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean)
  if (!words.length) return []
  return entries.filter((entry) => {
    const text = `${t(entry.label)} ${entry.hint ? t(entry.hint) : ''} ${t(`settings.sections.${entry.section}`)}`.toLocaleLowerCase()
    return words.every((word) => text.includes(word))
  })
}
