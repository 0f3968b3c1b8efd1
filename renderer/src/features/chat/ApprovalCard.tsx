import { useEffect, useRef } from 'react'
import { visibleControls } from '../../../../shared/visible-text'
import { describeAlwaysAllow, describeApproval, describeApprovalKind, describeCarriedData, describeSessionAllow } from '../../../../shared/i18n/describe'
import { useApp, useT } from '../../app/context'
import { Icon } from '../../components/Icon'
import type { ApprovalRequest } from '../../stores/chat-events'

/**
 * Cairn wants to run a command, write a file, read outside the workspace or fetch an address: show
 * exactly what (the real path, the full address), and offer only the answers the request allows.
 * The card takes focus when it appears, so Enter allows once and Esc denies without reaching for the mouse.
 */
export function ApprovalCard({ request }: { request: ApprovalRequest }): React.JSX.Element {
  const t = useT()
  const { chat } = useApp()
  const decide = (decision: Parameters<ReturnType<typeof chat.getState>['approve']>[1]) => void chat.getState().approve(request.requestId, decision)
  const disabled = Boolean(request.submitting)
  // Each answer is worded with what it grants (the prefix, the file or folder, the host).
  const session = describeSessionAllow(request, t)
  const always = describeAlwaysAllow(request, t)
  const warning = describeCarriedData(request, t)
  const card = useRef<HTMLElement>(null)
  useEffect(() => card.current?.focus(), [])
  const onKeyDown = (event: React.KeyboardEvent) => {
    if (disabled || event.nativeEvent.isComposing) return
    // Enter on a focused button presses that button; on the card itself it is "Allow once".
    if (event.key === 'Enter' && event.target === card.current) decide({ allow: true, remember: 'once' })
    else if (event.key === 'Escape') decide({ allow: false })
    else return
    event.preventDefault()
    event.stopPropagation()
  }
  return (
    <section ref={card} className="approval" aria-label={t('approval.title')} tabIndex={-1} onKeyDown={onKeyDown} aria-keyshortcuts="Enter Escape">
      <header className="approval-head">
        <Icon name="alert" size={16} />
        <span>{describeApprovalKind(request.kind, t)}</span>
        <span className="approval-tool">{request.tool}</span>
      </header>
      <p className="approval-summary">{visibleControls(describeApproval(request, t), { newlines: false })}</p>
      {request.command ? (
        <div className="approval-detail">
          <pre className="plain-code">{visibleControls(request.command)}</pre>
        </div>
      ) : null}
      {request.kind === 'fetch' && request.url ? <div className="approval-path">{visibleControls(request.url, { newlines: false })}</div> : null}
      {request.path ? <div className="approval-path">{visibleControls(request.path, { newlines: false })}</div> : null}
      {request.runsCode ? (
        <p className="notice warn" role="note">
          {t('approval.runsCode')}
        </p>
      ) : null}
      {warning ? (
        <p className="notice warn" role="note">
          {warning}
        </p>
      ) : null}
      {request.kind === 'mcp' && request.preview ? (
        <div className="approval-detail" role="group" aria-label={t('approval.mcpArguments')}>
          <span className="approval-caption">{t('approval.mcpArguments')}</span>
          <pre className="plain-code">{visibleControls(request.preview)}</pre>
        </div>
      ) : request.preview && request.preview !== request.command ? <pre className={`plain-code approval-preview${looksLikeDiff(request.preview) ? ' diff-text' : ''}`}>{previewLines(request.preview)}</pre> : null}
      <div className="approval-actions">
        <button type="button" className="primary-button" disabled={disabled} aria-keyshortcuts="Enter" onClick={() => decide({ allow: true, remember: 'once' })}>
          {t('approval.allowOnce')}
        </button>
        {session ? (
          <button type="button" className="secondary-button" disabled={disabled} onClick={() => decide({ allow: true, remember: 'session' })}>
            {session}
          </button>
        ) : null}
        {always ? (
          <button
            type="button"
            className="secondary-button"
            disabled={disabled}
            onClick={() => decide(always.scope === 'prefix' ? { allow: true, remember: 'prefix', prefix: request.prefix } : { allow: true, remember: always.scope })}
          >
            {always.label}
          </button>
        ) : null}
        <span className="spacer" />
        <button type="button" className="danger-button" disabled={disabled} aria-keyshortcuts="Escape" onClick={() => decide({ allow: false })}>
          {t('approval.deny')}
        </button>
      </div>
      <p className="approval-keys">
        <kbd>Enter</kbd> {t('approval.allowOnce')} · <kbd>Esc</kbd> {t('approval.deny')}
      </p>
    </section>
  )
}

function looksLikeDiff(text: string): boolean {
  return /^(---|\+\+\+|@@) /m.test(text)
}

/** Diff previews get a line each, coloured by their first character (as elements, not HTML). */
/** The preview with hiding characters written out (shared/visible-text.ts), a diff's lines coloured. */
function previewLines(raw: string): React.ReactNode {
  const text = visibleControls(raw)
  if (!looksLikeDiff(text)) return text
  return text.split('\n').map((line, index) => (
    <span key={index} className={line.startsWith('+') && !line.startsWith('+++') ? 'add' : line.startsWith('-') && !line.startsWith('---') ? 'del' : line.startsWith('@@') ? 'hunk' : undefined}>
      {line}
      {'\n'}
    </span>
  ))
}
