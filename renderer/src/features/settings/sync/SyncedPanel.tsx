import { useId, useState } from 'react'
import { localeOf } from '../../../../../shared/i18n'
import type { SyncStatus } from '../../../../../shared/ipc/contract-sync'
import { useApp, useSettings, useT, useUi } from '../../../app/context'
import { Dialog } from '../../../components/Dialog'
import { Notice, Spinner } from '../../../components/Feedback'
import { describeError } from '../../../ipc/error-words'
import { relativeTime, useNow } from '../../../lib/time'
import { RememberSecretsChoice } from '../RememberSecretsChoice'
import { currentProblem, describeLastSync, describeSchedule, describeSyncProblem, SYNC_SCHEDULES } from './sync-words'

interface Props {
  status: SyncStatus
  onStatus(status: SyncStatus): void
}

/** Sync is set up: where to, the last sync and any problem, conflicts waiting, and Sync now / schedule / token / Stop syncing. */
export function SyncedPanel({ status, onStatus }: Props): React.JSX.Element {
  const t = useT()
  const { client, ui } = useApp()
  const locale = localeOf(useUi((s) => s.language))
  const now = useNow()
  const id = useId()
  const [problem, setProblem] = useState<string | null>(null)
  const [tokenDraft, setTokenDraft] = useState<string | null>(null)
  const [leaving, setLeaving] = useState(false)
  const browserMode = useSettings((s) => s.info?.mode === 'browser')

  const act = async (request: () => Promise<SyncStatus>): Promise<boolean> => {
    try {
      onStatus(await request())
      setProblem(null)
      return true
    } catch (error) {
      setProblem(describeError(error))
      return false
    }
  }
  const failed = currentProblem(status)
  const report = status.lastReport

  return (
    <>
      <p data-setting="sync.remote">
        {t('sync.syncingWith', { remote: status.remote, device: status.deviceName })} <span className="muted">{t('sync.branch', { branch: status.branch })}</span>
      </p>
      <p className="muted" aria-live="polite">
        {status.running ? t(status.phase ? `sync.phase.${status.phase}` : 'sync.running') : status.lastSync ? describeLastSync(status.lastSync, relativeTime(status.lastSync.at, now, locale), t) : t('sync.never')}
      </p>
      {failed && !status.running ? (
        <Notice tone="error">{t('sync.lastProblem', { when: relativeTime(failed.at, now, locale), problem: describeSyncProblem(failed.code, failed.message, t) })}</Notice>
      ) : null}
      {status.waitingInInbox > 0 ? (
        <Notice
          tone="warn"
          actions={
            <button type="button" className="ghost-button small" onClick={() => ui.getState().navigate('inbox')}>
              {t('sync.openInbox')}
            </button>
          }
        >
          {t('sync.waiting', { count: status.waitingInInbox })}
        </Notice>
      ) : null}
      {report?.failedLibraries?.map((library) => (
        <Notice key={library.name} tone="error">
          {t('sync.libraryFailed', { name: library.name, message: library.message })}
        </Notice>
      ))}
      {report && report.overflow > 0 ? <p className="field-hint">{t('sync.overflow', { count: report.overflow })}</p> : null}
      {report?.problems.map((refused) => (
        <p key={refused.file} className="field-hint">
          {t('sync.refused', { file: refused.file, message: refused.message })}
        </p>
      ))}
      <div className="field-row">
        <div className="field-text">
          <label className="field-label" htmlFor={`${id}-every`}>
            {t('sync.schedule')}
          </label>
          <p className="field-hint">{t('sync.scheduleHint')}</p>
        </div>
        <select id={`${id}-every`} className="select" value={status.everyMinutes} onChange={(event) => void act(() => client.request('sync.setSchedule', { everyMinutes: Number(event.target.value) }))}>
          {[...new Set([...SYNC_SCHEDULES, status.everyMinutes])].sort((a, b) => a - b).map((minutes) => (
            <option key={minutes} value={minutes}>
              {describeSchedule(minutes, t)}
            </option>
          ))}
        </select>
      </div>
      {tokenDraft !== null ? (
        <form
          className="field"
          data-setting="sync.token"
          onSubmit={(event) => {
            event.preventDefault()
            const token = tokenDraft.trim()
            if (token) void act(() => client.request('sync.setToken', { token })).then((ok) => ok && setTokenDraft(null))
          }}
        >
          <label className="field-label" htmlFor={`${id}-token`}>
            {t('sync.token')}
          </label>
          <div className="input-row">
            <input id={`${id}-token`} className="text-input" type="password" autoComplete="off" spellCheck={false} autoFocus value={tokenDraft} onChange={(event) => setTokenDraft(event.target.value)} />
            <button type="submit" className="secondary-button" disabled={!tokenDraft.trim()}>
              {t('sync.saveToken')}
            </button>
            <button type="button" className="ghost-button" onClick={() => setTokenDraft(null)}>
              {t('common.cancel')}
            </button>
          </div>
          <div className="field-hint">{browserMode ? t('sync.tokenHintBrowser') : t('sync.tokenHint')}</div>
          <RememberSecretsChoice />
        </form>
      ) : null}
      {problem ? <Notice tone="error">{problem}</Notice> : null}
      <div className="card-actions">
        <button type="button" className="secondary-button" disabled={status.running} onClick={() => void act(() => client.request('sync.run'))}>
          {status.running ? t('sync.running') : t('sync.now')}
        </button>
        {status.running ? <Spinner label={t('sync.running')} /> : null}
        <span className="spacer" />
        {tokenDraft === null ? (
          <button type="button" className="ghost-button" data-setting="sync.token" onClick={() => setTokenDraft('')}>
            {status.hasToken ? t('sync.changeToken') : t('sync.addToken')}
          </button>
        ) : null}
        <button type="button" className="secondary-button" onClick={() => setLeaving(true)}>
          {t('sync.leave')}
        </button>
      </div>
      {leaving ? (
        <Dialog
          title={t('sync.leaveTitle')}
          onClose={() => setLeaving(false)}
          actions={
            <>
              <button type="button" className="ghost-button" data-autofocus onClick={() => setLeaving(false)}>
                {t('common.cancel')}
              </button>
              <button type="button" className="danger-button" onClick={() => void act(() => client.request('sync.leave')).then(() => setLeaving(false))}>
                {t('sync.leave')}
              </button>
            </>
          }
        >
          <p>{t('sync.leaveBody')}</p>
        </Dialog>
      ) : null}
    </>
  )
}
