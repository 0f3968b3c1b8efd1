import { useId, useState } from 'react'
import type { SyncProblemCode, SyncStatus } from '../../../../../shared/ipc/contract-sync'
import { useApp, useT } from '../../../app/context'
import { Notice, Spinner } from '../../../components/Feedback'
import { describeError } from '../../../ipc/error-words'
import { describeSyncProblem } from './sync-words'

interface Props {
  status: SyncStatus
  onStatus(status: SyncStatus): void
}

/** Sync is not set up: the repository, its token and this device's name; the first sync runs on "Set up sync". */
export function SyncSetupForm({ status, onStatus }: Props): React.JSX.Element {
  const t = useT()
  const { client } = useApp()
  const id = useId()
  const [remote, setRemote] = useState('')
  const [token, setToken] = useState('')
  const [device, setDevice] = useState(status.deviceName || status.hostName)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<{ code: SyncProblemCode; message: string } | string | null>(null)

  const setUp = async (): Promise<void> => {
    // Said here, in the user's words, rather than as the contract's refusal.
    if (!/^https?:\/\/\S+$/i.test(remote.trim())) return setFailure({ code: 'unsupported_remote', message: '' })
    setBusy(true)
    setFailure(null)
    try {
      const result = await client.request('sync.setup', { remote: remote.trim(), deviceName: device.trim(), ...(token.trim() ? { token: token.trim() } : {}) })
      onStatus(result.status)
      if (!result.ok) setFailure({ code: result.code, message: result.error })
    } catch (error) {
      setFailure(describeError(error))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form
      className="sync-setup"
      // The fields lay out as the group's own rows.
      style={{ display: 'contents' }}
      onSubmit={(event) => {
        event.preventDefault()
        if (remote.trim() && !busy) void setUp()
      }}
    >
      <div className="field">
        <label className="field-label" htmlFor={`${id}-remote`}>
          {t('sync.remote')}
        </label>
        <input id={`${id}-remote`} className="text-input mono" inputMode="url" autoComplete="off" spellCheck={false} value={remote} placeholder="https://github.com/you/cairn-sync.git" onChange={(event) => setRemote(event.target.value)} />
        <div className="field-hint">{t('sync.remoteHint')}</div>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-token`}>
          {t('sync.token')}
        </label>
        <input id={`${id}-token`} className="text-input" type="password" autoComplete="off" spellCheck={false} value={token} onChange={(event) => setToken(event.target.value)} />
        <div className="field-hint">{t('sync.tokenHint')}</div>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-device`}>
          {t('sync.device')}
        </label>
        <input id={`${id}-device`} className="text-input" autoComplete="off" maxLength={100} value={device} placeholder={status.hostName} onChange={(event) => setDevice(event.target.value)} />
        <div className="field-hint">{t('sync.deviceHint', { device: device.trim() || status.hostName })}</div>
      </div>
      {failure ? <Notice tone="error">{typeof failure === 'string' ? failure : describeSyncProblem(failure.code, failure.message, t)}</Notice> : null}
      <div className="card-actions">
        {busy ? <Spinner label={t('sync.settingUp')} /> : null}
        <span className="spacer" />
        <button type="submit" className="primary-button" disabled={!remote.trim() || busy}>
          {busy ? t('sync.settingUp') : t('sync.setUp')}
        </button>
      </div>
    </form>
  )
}
