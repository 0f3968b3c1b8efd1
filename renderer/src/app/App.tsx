import { useEffect, useRef } from 'react'
import { ChatView } from '../features/chat/ChatView'
import { useDiscardIncognitoOnExit } from '../features/chat/Incognito'
import { ConnectionBanner, Toasts, useGlobalKeys } from './Chrome'
import { useApp, useUi } from './context'
import { useNarrowWindow } from './layout-width'
import { ShortcutsDialog } from './ShortcutsDialog'
import { useFocusOnScreenChange } from './screen-focus'
import { translator } from '../../../shared/i18n'
import type { Language } from '../stores/ui'
import { Sidebar } from './Sidebar'
import { TimelineView } from '../features/timeline/TimelineView'
import { InboxView } from '../features/inbox/InboxView'
import { SkillsView } from '../features/skills/SkillsView'
import { MemoryView } from '../features/memory/MemoryView'
import { SettingsView } from '../features/settings/SettingsView'

/** The main window: sidebar on the left (a rail when folded), the current screen on the right. */
export function App(): React.JSX.Element {
  useGlobalKeys()
  useDiscardIncognitoOnExit()
  const { ui } = useApp()
  const view = useUi((s) => s.view)
  const narrow = useNarrowWindow()
  const folded = useUi((s) => narrow || s.sidebarCollapsed)
  const main = useRef<HTMLElement>(null)
  useFocusOnScreenChange(view, main)
  // Crossing the narrow line starts the sidebar in its resting place for the new width.
  useEffect(() => ui.getState().setSidebarPeek(false), [narrow, ui])
  return (
    <div className={folded ? 'app folded' : 'app'}>
      <Sidebar narrow={narrow} />
      <main ref={main} className="main">
        <ConnectionBanner />
        {view === 'chat' ? <ChatView /> : null}
        {view === 'timeline' ? <TimelineView /> : null}
        {view === 'inbox' ? <InboxView /> : null}
        {view === 'skills' ? <SkillsView /> : null}
        {view === 'memory' ? <MemoryView /> : null}
        {view === 'settings' ? <SettingsView /> : null}
      </main>
      <Toasts />
      <ShortcutsDialog />
    </div>
  )
}

/** Browser mode opened without the token: say how to get in. */
export function MissingToken({ language }: { language: Language }): React.JSX.Element {
  const t = translator(language)
  return (
    <div className="missing-token">
      <div className="missing-token-card">
        <h1>{t('token.title')}</h1>
        <p>{t('token.body')}</p>
        <pre className="plain-code">cairn serve</pre>
        <p className="muted">{t('token.hint')}</p>
      </div>
    </div>
  )
}
