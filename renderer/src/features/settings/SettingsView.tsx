import { useEffect, useRef, useState } from 'react'
import { useApp, useSettings, useT, useUi } from '../../app/context'
import { Notice } from '../../components/Feedback'
import { Pane, PaneLoading } from '../../components/Pane'
import type { SettingsSection } from '../../stores/ui'
import { AboutSection, AppearanceSection } from './AppearanceSection'
import { DataSection } from './DataSection'
import { InstructionsSection } from './InstructionsSection'
import { LearningSection } from './LearningSection'
import { MemoryProviderSection } from './memory/MemoryProviderSection'
import { McpSection } from './mcp/McpSection'
import { ProviderSection } from './ProviderSection'
import { SearchSection } from './search/SearchSection'
import { SettingsFind, SettingsFindResults } from './SettingsFind'
import { SettingsNav, sectionPanelId, sectionTabId } from './SettingsNav'
import { focusSetting } from './focus-setting'
import type { SettingsEntry } from './settings-index'
import './settings-sections.css'

/** The cards of each section, in the order they are shown. */
function SectionCards({ section }: { section: SettingsSection }): React.JSX.Element {
  switch (section) {
    case 'provider':
      return (
        <>
          <ProviderSection />
          <InstructionsSection />
        </>
      )
    case 'learning':
      return (
        <>
          <LearningSection />
          <MemoryProviderSection />
        </>
      )
    case 'search':
      return <SearchSection />
    case 'tools':
      return <McpSection />
    case 'data':
      return <DataSection />
    case 'appearance':
      return (
        <>
          <AppearanceSection />
          <AboutSection />
        </>
      )
  }
}

/**
 * Settings in sections (`ui.settingsSection`, set by `openSettings(section)` so an error's "Open
 * settings" lands where the fix is): a navigation list beside the section, and a search over every
 * section's settings in the current language that jumps to the one picked.
 */
export function SettingsView(): React.JSX.Element {
  const t = useT()
  const { settings, ui } = useApp()
  const view = useSettings((s) => s.view)
  const loadError = useSettings((s) => s.loadError)
  const section = useUi((s) => s.settingsSection)
  const [query, setQuery] = useState('')
  const [target, setTarget] = useState<{ entry: SettingsEntry; at: number } | null>(null)
  const panel = useRef<HTMLDivElement>(null)

  useEffect(() => {
    void settings.getState().load()
    void settings.getState().loadInfo()
    void settings.getState().loadLearning()
  }, [settings])

  // A jump lands once the section's cards are on screen (some load their own data first).
  useEffect(() => {
    if (!target || !panel.current) return
    return focusSetting(panel.current, { id: target.entry.label, fallback: target.entry.fallback }, () => setTarget(null))
  }, [target, section, view])

  const jump = (entry: SettingsEntry): void => {
    setQuery('')
    ui.getState().openSettings(entry.section)
    setTarget({ entry, at: Date.now() })
  }

  return (
    <Pane label={t('nav.settings')} title={t('settings.title')}>
      <div className="settings-layout">
        <div className="settings-side">
          <SettingsFind query={query} onQuery={setQuery} onJump={jump} />
          <SettingsNav current={section} onPick={(next) => ui.getState().openSettings(next)} />
        </div>
        <div className="pane-scroll settings-scroll">
          <div className="pane-content narrow">
            {query.trim() ? <SettingsFindResults query={query} onJump={jump} /> : null}
            <div ref={panel} role="tabpanel" id={sectionPanelId(section)} aria-labelledby={sectionTabId(section)} className="settings-panel" hidden={Boolean(query.trim())}>
              {loadError ? <Notice tone="error">{loadError}</Notice> : null}
              {view ? <SectionCards section={section} /> : loadError ? null : <PaneLoading label={t('common.loading')} />}
            </div>
          </div>
        </div>
      </div>
    </Pane>
  )
}
