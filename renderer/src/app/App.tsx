import { ChatView } from '../features/chat/ChatView'
import { ConnectionBanner, Toasts, useGlobalKeys } from './Chrome'
import { useUi } from './context'
import { translator } from '../../../shared/i18n'
import type { Language } from '../stores/ui'
import { Sidebar } from './Sidebar'
import { TimelineView } from '../features/timeline/TimelineView'
import { InboxView } from '../features/inbox/InboxView'
import { SkillsView } from '../features/skills/SkillsView'
import { MemoryView } from '../features/memory/MemoryView'
import { SettingsView } from '../features/settings/SettingsView'

/** The main window: sidebar on the left, the current screen on the right. */
export function App(): React.JSX.Element {
  useGlobalKeys()
  const view = useUi((s) => s.view)
  return (
    <div className="app">
      <Sidebar />
      <main className="main">
        <ConnectionBanner />
        {view === 'chat' ? <ChatView /> : null}
        {view === 'timeline' ? <TimelineView /> : null}
        {view === 'inbox' ? <InboxView /> : null}
        {view === 'skills' ? <SkillsView /> : null}
        {view === 'memory' ? <MemoryView /> : null}
        {view === 'settings' ? <SettingsView /> : null}
      </main>
      <Toasts />
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
