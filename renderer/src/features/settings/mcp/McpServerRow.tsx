import { useId, useState } from 'react'
import { useStore } from 'zustand'
import { isErrorKey, type McpValueParams } from '../../../../../shared/error-keys'
import type { McpServerInfo, McpServerProblem } from '../../../../../shared/mcp'
import type { Translate } from '../../../../../shared/i18n'
import { useLocale, useT } from '../../../app/context'
import { Dialog } from '../../../components/Dialog'
import { Icon } from '../../../components/Icon'
import type { McpStore } from '../../../stores/mcp'
import { McpLogDialog } from './McpLogDialog'
import { McpToolList } from './McpToolList'

/** One server: its state (with why it failed), on/off, its tools, and Test, Log and Remove. */
export function McpServerRow({ server, store }: { server: McpServerInfo; store: McpStore }): React.JSX.Element {
  const t = useT()
  const locale = useLocale()
  const busy = useStore(store, (s) => Boolean(s.pending[server.name]))
  const [expanded, setExpanded] = useState(false)
  const [showLog, setShowLog] = useState(false)
  const [confirmRemove, setConfirmRemove] = useState(false)
  const toolsId = useId()
  const switchId = useId()

  return (
    <li className={`mcp-server status-${server.status}`}>
      <div className="mcp-server-head">
        <button
          type="button"
          className="icon-button small"
          aria-expanded={expanded}
          aria-controls={toolsId}
          aria-label={t(expanded ? 'mcp.hideTools' : 'mcp.showTools', { name: server.name })}
          onClick={() => setExpanded(!expanded)}
        >
          <Icon name={expanded ? 'chevronDown' : 'chevronRight'} size={14} />
        </button>
        <div className="mcp-server-title">
          <span className="mcp-server-name">{server.name}</span>
          <span className="mcp-server-target" title={server.target}>
            {server.transport} · {server.target}
          </span>
        </div>
        <span className={`badge mcp-status ${badgeTone(server)}`} role="status">
          {statusWords(server, t)}
        </span>
        <label className="visually-hidden" htmlFor={switchId}>
          {t('mcp.enabled', { name: server.name })}
        </label>
        <button
          id={switchId}
          type="button"
          role="switch"
          aria-checked={server.enabled}
          disabled={busy}
          className={server.enabled ? 'switch on' : 'switch'}
          onClick={() => void store.getState().setEnabled(server.name, !server.enabled)}
        >
          <span className="switch-knob" />
        </button>
      </div>
      {server.status === 'failed' && server.error ? (
        <div className="mcp-failure" role="group" aria-label={t('mcp.status.failed')}>
          <p className="mcp-failure-why">{t(`mcp.error.${server.error.code}`)}</p>
          <p className="mcp-failure-message">{mcpProblemText(server.error, t)}</p>
          {server.nextRestartAt ? (
            <p className="muted">{t('mcp.restartAt', { time: new Date(server.nextRestartAt).toLocaleTimeString(locale), count: server.restarts + 1 })}</p>
          ) : null}
          {server.logTail.trim() ? (
            <>
              <span className="approval-caption">{t('mcp.logTail')}</span>
              <pre className="plain-code mcp-log-tail">{server.logTail.trimEnd()}</pre>
            </>
          ) : null}
        </div>
      ) : null}
      {expanded ? (
        <div id={toolsId}>
          <McpToolList server={server} store={store} busy={busy} />
        </div>
      ) : null}
      <div className="mcp-server-actions">
        <button type="button" className="secondary-button small" disabled={busy} onClick={() => void store.getState().test(server.name)}>
          {t('mcp.test')}
        </button>
        <button type="button" className="ghost-button small" onClick={() => setShowLog(true)}>
          {t('mcp.log')}
        </button>
        <span className="spacer" />
        <button type="button" className="ghost-button small danger-text" disabled={busy} onClick={() => setConfirmRemove(true)}>
          <Icon name="trash" size={14} /> {t('mcp.remove')}
        </button>
      </div>
      {showLog ? <McpLogDialog name={server.name} onClose={() => setShowLog(false)} /> : null}
      {confirmRemove ? (
        <Dialog
          title={t('mcp.removeTitle', { name: server.name })}
          onClose={() => setConfirmRemove(false)}
          actions={
            <>
              <button type="button" className="secondary-button" data-autofocus onClick={() => setConfirmRemove(false)}>
                {t('mcp.cancel')}
              </button>
              <button
                type="button"
                className="danger-button"
                onClick={() => {
                  setConfirmRemove(false)
                  void store.getState().remove(server.name)
                }}
              >
                {t('mcp.remove')}
              </button>
            </>
          }
        >
          <p>{t('mcp.removeBody')}</p>
        </Dialog>
      ) : null}
    </li>
  )
}

export function statusWords(server: McpServerInfo, t: Translate): string {
  if (server.status === 'ready') return server.tools.length === 1 ? t('mcp.status.readyOne') : t('mcp.status.ready', { count: server.tools.length })
  return t(`mcp.status.${server.status}`)
}

/** Why a server failed, in the window's language: by its key (the part of its config too), or a peer's English as it came. */
export function mcpProblemText(problem: McpServerProblem, t: Translate): string {
  if (!isErrorKey(problem.key)) return problem.message
  const params = { ...problem.params }
  if (typeof params.part === 'string') params.where = t(`mcp.where.${params.part as McpValueParams['part']}`, { name: params.partName ?? '' })
  return t(`error.${problem.key}`, params)
}

function badgeTone(server: McpServerInfo): string {
  if (server.status === 'failed') return 'danger'
  if (server.status === 'ready') return 'source-review'
  if (server.status === 'starting') return 'warn'
  return 'muted'
}
