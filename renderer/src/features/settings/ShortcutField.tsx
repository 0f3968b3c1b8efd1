import { useState } from 'react'
import { useApp, useSettings, useT } from '../../app/context'

const MODIFIER_KEYS = new Set(['Control', 'Shift', 'Alt', 'Meta', 'AltGraph'])

/** Turns a key press into an Electron accelerator ("CommandOrControl+Shift+Space"), or null for a lone modifier. */
export function acceleratorOf(event: Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>): string | null {
  if (MODIFIER_KEYS.has(event.key)) return null
  const parts: string[] = []
  if (event.ctrlKey || event.metaKey) parts.push('CommandOrControl')
  if (event.altKey) parts.push('Alt')
  if (event.shiftKey) parts.push('Shift')
  // A global shortcut needs a modifier, or every plain key press would be taken from other apps.
  if (!parts.length) return null
  const key = event.code === 'Space' ? 'Space' : /^Key[A-Z]$/.test(event.code) ? event.code.slice(3) : /^Digit\d$/.test(event.code) ? event.code.slice(5) : /^F\d{1,2}$/.test(event.key) ? event.key : event.key.length === 1 ? event.key.toUpperCase() : event.key
  return [...parts, key].join('+')
}

/** Shows the accelerator readably for this platform. */
export function prettyAccelerator(accelerator: string, mac: boolean): string {
  return accelerator
    .split('+')
    .map((part) => (part === 'CommandOrControl' || part === 'CmdOrCtrl' ? (mac ? '⌘' : 'Ctrl') : part === 'Alt' && mac ? '⌥' : part === 'Shift' && mac ? '⇧' : part))
    .join(mac ? '' : '+')
}

/** Records the global quick-prompt shortcut: click, press the keys, done. */
export function ShortcutField(): React.JSX.Element | null {
  const t = useT()
  const { settings } = useApp()
  const shortcut = useSettings((s) => s.view?.config.ui.shortcut)
  const [recording, setRecording] = useState(false)
  if (shortcut === undefined) return null
  const mac = /Mac/i.test(navigator.platform)
  return (
    <div className="field-row" data-setting="settings.shortcut.label">
      <div className="field-text">
        <span className="field-label">{t('settings.shortcut.label')}</span>
        <p className="field-hint">{recording ? t('settings.shortcut.recording') : t('settings.shortcut.hint')}</p>
      </div>
      <button
        type="button"
        className={recording ? 'shortcut-button recording' : 'shortcut-button'}
        aria-label={t('settings.shortcut.change')}
        onClick={() => setRecording(true)}
        onBlur={() => setRecording(false)}
        onKeyDown={(event) => {
          if (!recording) return
          event.preventDefault()
          if (event.key === 'Escape') return setRecording(false)
          const accelerator = acceleratorOf(event.nativeEvent)
          if (!accelerator) return
          setRecording(false)
          if (accelerator !== shortcut) void settings.getState().update({ ui: { shortcut: accelerator } })
        }}
      >
        <kbd>{recording ? '…' : prettyAccelerator(shortcut, mac)}</kbd>
      </button>
    </div>
  )
}
