import { memo, useId, useState } from 'react'
import { useT } from '../../app/context'
import { Icon } from '../../components/Icon'
import { Spinner } from '../../components/Feedback'
import type { ToolItem } from '../../stores/chat-items'

const MAX_SHOWN = 20_000

/** JSON shown indented; anything else as it is. Long results are cut for display only. */
export function prettyJson(text: string): string {
  let shown = text
  try {
    shown = JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    // Not JSON: show the raw text.
  }
  return shown.length > MAX_SHOWN ? `${shown.slice(0, MAX_SHOWN)}\n…` : shown
}

const TELLING_KEYS = ['command', 'path', 'query', 'url', 'content', 'name', 'pattern']

/** A one-line hint of what the call was about: its most telling string argument. */
export function argumentHint(args: string): string {
  try {
    const parsed = JSON.parse(args) as unknown
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const record = parsed as Record<string, unknown>
      const keys = [...TELLING_KEYS.filter((key) => key in record), ...Object.keys(record)]
      for (const key of keys) {
        const value = record[key]
        if (typeof value === 'string' && value.trim()) {
          const line = value.trim().split('\n')[0]
          return line.length > 80 ? `${line.slice(0, 80)}…` : line
        }
      }
    }
  } catch {
    // Partial or non-JSON arguments: no hint.
  }
  return ''
}

/** The user said no to this call (an approval tool's result carries `denied: true`). */
export function wasDeclined(result: string | null): boolean {
  if (!result) return false
  try {
    const parsed = JSON.parse(result) as unknown
    return typeof parsed === 'object' && parsed !== null && (parsed as { denied?: unknown }).denied === true
  } catch {
    return false
  }
}

/** A tool call, folded to one line; unfolds to its arguments and result. */
export const ToolCallRow = memo(function ToolCallRow({ item }: { item: ToolItem }): React.JSX.Element {
  const t = useT()
  const [open, setOpen] = useState(false)
  const bodyId = useId()
  const running = item.result === null
  const declined = item.ok === false && wasDeclined(item.result)
  const failed = item.ok === false && !declined
  const hint = argumentHint(item.arguments)
  return (
    <div className={`tool-call${failed ? ' failed' : declined ? ' declined' : ''}`}>
      <button type="button" className="tool-call-head" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)}>
        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={14} />
        <span className="tool-call-icon">{running ? <Spinner label={t('chat.tool.running')} /> : <Icon name={failed ? 'alert' : declined ? 'close' : 'tool'} size={14} />}</span>
        <span className="tool-call-name">{item.name}</span>
        {hint ? <span className="tool-call-hint">{hint}</span> : null}
        <span className="tool-call-meta">
          {running ? t('chat.tool.running') : declined ? t('chat.tool.declined') : failed ? t('chat.tool.failed') : item.durationMs !== null ? t('chat.tool.took', { ms: item.durationMs }) : ''}
        </span>
      </button>
      {open ? (
        <div className="tool-call-body" id={bodyId}>
          <div className="tool-call-section">{t('chat.tool.arguments')}</div>
          <pre className="plain-code">{item.arguments ? prettyJson(item.arguments) : t('chat.tool.noArguments')}</pre>
          <div className="tool-call-section">{t('chat.tool.result')}</div>
          <pre className="plain-code">{running ? t('chat.tool.waiting') : prettyJson(item.result ?? '')}</pre>
        </div>
      ) : null}
    </div>
  )
})
