import { Fragment } from 'react'
import { Dialog } from '../components/Dialog'
import { useApp, useSettings, useT, useUi } from './context'
import { isMac, keyLabels, quickPromptShortcut, shortcutGroups, type Shortcut } from './shortcuts'

/** `?` or Ctrl/Cmd+/: every shortcut, grouped by where it works, written for this platform. */
export function ShortcutsDialog(): React.JSX.Element | null {
  const t = useT()
  const { ui, client } = useApp()
  const open = useUi((s) => s.shortcutsOpen)
  const accelerator = useSettings((s) => s.view?.config.ui.shortcut ?? null)
  if (!open) return null
  const mac = isMac()
  const close = (): void => ui.getState().setShortcutsOpen(false)
  // The quick prompt is a desktop-app shortcut (registered with the OS); browser mode has none.
  const quick = client.mode === 'desktop' && accelerator ? quickPromptShortcut(accelerator) : null
  return (
    <Dialog
      title={t('shortcuts.title')}
      onClose={close}
      wide
      actions={
        <button type="button" className="secondary-button" onClick={close} data-autofocus>
          {t('common.close')}
        </button>
      }
    >
      <p className="muted shortcuts-lead">{t('shortcuts.lead')}</p>
      <div className="shortcut-groups">
        {shortcutGroups.map((group, index) => (
          <section key={group.title} className="shortcut-group" aria-label={t(group.title)}>
            <h3>{t(group.title)}</h3>
            <dl>
              {(index === 0 && quick ? [...group.shortcuts, quick] : group.shortcuts).map((shortcut) => (
                <ShortcutLine key={shortcut.label} shortcut={shortcut} mac={mac} or={t('shortcuts.or')} label={t(shortcut.label)} />
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Dialog>
  )
}

function ShortcutLine({ shortcut, mac, or, label }: { shortcut: Shortcut; mac: boolean; or: string; label: string }): React.JSX.Element {
  return (
    <div className="shortcut-line">
      <dt>{label}</dt>
      <dd>
        {shortcut.keys.map((combo, index) => (
          <Fragment key={combo}>
            {index > 0 ? <span className="shortcut-or">{or}</span> : null}
            <span className="shortcut-keys">
              {keyLabels(combo, mac).map((key) => (
                <kbd key={key}>{key}</kbd>
              ))}
            </span>
          </Fragment>
        ))}
      </dd>
    </div>
  )
}
