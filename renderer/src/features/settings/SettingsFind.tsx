import { useId } from 'react'
import { useSettings, useT } from '../../app/context'
import { findSettings, type SettingsEntry } from './settings-index'

function useMatches(query: string): SettingsEntry[] {
  const t = useT()
  const desktop = useSettings((s) => s.info?.mode === 'desktop')
  return findSettings(query, t).filter((entry) => desktop || !entry.desktopOnly)
}

/** The search box over all sections: typing lists what matches in place of the section; Enter opens the first. */
export function SettingsFind({ query, onQuery, onJump }: { query: string; onQuery(query: string): void; onJump(entry: SettingsEntry): void }): React.JSX.Element {
  const t = useT()
  const matches = useMatches(query)
  return (
    <input
      type="search"
      className="text-input settings-find"
      aria-label={t('settings.find.label')}
      aria-controls="settings-find-results"
      placeholder={t('settings.find.placeholder')}
      value={query}
      onChange={(event) => onQuery(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && matches[0]) {
          event.preventDefault()
          onJump(matches[0])
        } else if (event.key === 'Escape' && query) {
          event.preventDefault()
          onQuery('')
        }
      }}
    />
  )
}

/** What the search found, each a button to its setting, with the section it is in. */
export function SettingsFindResults({ query, onJump }: { query: string; onJump(entry: SettingsEntry): void }): React.JSX.Element {
  const t = useT()
  const id = useId()
  const matches = useMatches(query)
  return (
    <section className="settings-found" id="settings-find-results" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="visually-hidden">
        {t('settings.find.results')}
      </h2>
      <p className="muted" aria-live="polite">
        {matches.length === 1 ? t('settings.find.one') : matches.length ? t('settings.find.count', { count: matches.length }) : t('settings.find.none', { query: query.trim() })}
      </p>
      {matches.length ? (
        <ul className="settings-found-list">
          {matches.map((entry) => (
            <li key={`${entry.section}:${entry.label}`}>
              <button type="button" className="settings-found-item" onClick={() => onJump(entry)}>
                <span className="settings-found-label">{t(entry.label)}</span>
                <span className="settings-found-section">{t(`settings.sections.${entry.section}`)}</span>
                {entry.hint ? <span className="settings-found-hint">{t(entry.hint)}</span> : null}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}
