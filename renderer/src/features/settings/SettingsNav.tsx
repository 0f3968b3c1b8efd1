import { useEffect, useRef } from 'react'
import { useT } from '../../app/context'
import { SETTINGS_SECTIONS, type SettingsSection } from '../../stores/ui'

export const sectionTabId = (section: SettingsSection): string => `settings-tab-${section}`
export const sectionPanelId = (section: SettingsSection): string => `settings-panel-${section}`

/**
 * The sections as a tab list (vertical beside the section, a scrolling row in a narrow window): the
 * arrow keys, Home and End move between sections and show each; Tab leaves for the section itself.
 */
export function SettingsNav({ current, onPick }: { current: SettingsSection; onPick(section: SettingsSection): void }): React.JSX.Element {
  const t = useT()
  const list = useRef<HTMLDivElement>(null)

  // In a narrow window the row of tabs scrolls: the section shown (say, opened from an error) stays in sight.
  useEffect(() => {
    list.current?.querySelector<HTMLElement>(`#${sectionTabId(current)}`)?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' })
  }, [current])

  const move = (event: React.KeyboardEvent, index: number): void => {
    const last = SETTINGS_SECTIONS.length - 1
    const next = { ArrowDown: index + 1, ArrowRight: index + 1, ArrowUp: index - 1, ArrowLeft: index - 1, Home: 0, End: last }[event.key]
    if (next === undefined) return
    event.preventDefault()
    const section = SETTINGS_SECTIONS[(next + last + 1) % (last + 1)]
    onPick(section)
    list.current?.querySelector<HTMLElement>(`#${sectionTabId(section)}`)?.focus()
  }

  return (
    <div ref={list} className="settings-nav" role="tablist" aria-orientation="vertical" aria-label={t('settings.sections.label')}>
      {SETTINGS_SECTIONS.map((section, index) => (
        <button
          key={section}
          type="button"
          role="tab"
          id={sectionTabId(section)}
          aria-selected={section === current}
          aria-controls={sectionPanelId(section)}
          tabIndex={section === current ? 0 : -1}
          className={section === current ? 'settings-tab active' : 'settings-tab'}
          onClick={() => onPick(section)}
          onKeyDown={(event) => move(event, index)}
        >
          {t(`settings.sections.${section}`)}
        </button>
      ))}
    </div>
  )
}
