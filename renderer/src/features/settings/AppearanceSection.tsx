import { useApp, useSettings, useT, useUi } from '../../app/context'
import { Segmented } from '../../components/Controls'
import type { Language, Theme } from '../../stores/ui'
import { ShortcutField } from './ShortcutField'

/** Theme and language apply at once here and are saved to config.json. */
export function AppearanceSection(): React.JSX.Element {
  const t = useT()
  const { settings, ui } = useApp()
  const theme = useUi((s) => s.theme)
  const language = useUi((s) => s.language)
  const desktop = useSettings((s) => s.info?.mode === 'desktop')

  const setTheme = (next: Theme): void => {
    ui.getState().setTheme(next)
    void settings.getState().update({ ui: { theme: next } })
  }
  const setLanguage = (next: Language): void => {
    ui.getState().setLanguage(next)
    void settings.getState().update({ ui: { language: next } })
  }

  return (
    <section className="card" aria-labelledby="settings-appearance">
      <header className="card-head">
        <h2 id="settings-appearance">{t('settings.appearance.title')}</h2>
      </header>
      <div className="field-row" data-setting="settings.appearance.theme">
        <div className="field-text">
          <span className="field-label">{t('settings.appearance.theme')}</span>
        </div>
        <Segmented
          label={t('settings.appearance.theme')}
          value={theme}
          options={[
            { value: 'system', label: t('settings.appearance.system') },
            { value: 'light', label: t('settings.appearance.light') },
            { value: 'dark', label: t('settings.appearance.dark') }
          ]}
          onChange={setTheme}
        />
      </div>
      <div className="field-row" data-setting="settings.appearance.language">
        <div className="field-text">
          <label className="field-label" htmlFor="settings-language">
            {t('settings.appearance.language')}
          </label>
        </div>
        <select id="settings-language" className="select" value={language} onChange={(event) => setLanguage(event.target.value as Language)}>
          <option value="en">English</option>
          <option value="zh-CN">简体中文</option>
        </select>
      </div>
      {desktop ? <ShortcutField /> : null}
    </section>
  )
}

export function AboutSection(): React.JSX.Element | null {
  const t = useT()
  const info = useSettings((s) => s.info)
  if (!info) return null
  return (
    <section className="card" aria-labelledby="settings-about">
      <header className="card-head">
        <h2 id="settings-about" data-setting="settings.about.title">{t('settings.about.title')}</h2>
      </header>
      <dl className="about-list">
        <dt>{t('settings.about.version')}</dt>
        <dd>{info.version}</dd>
        <dt>{t('settings.about.mode')}</dt>
        <dd>{info.mode === 'desktop' ? t('settings.about.desktop') : t('settings.about.browser')}</dd>
        <dt data-setting="settings.about.home">{t('settings.about.home')}</dt>
        <dd>
          <code>{info.home}</code>
        </dd>
      </dl>
    </section>
  )
}
