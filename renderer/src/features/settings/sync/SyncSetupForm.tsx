import { useId, useRef } from 'react'
import type { SyncStatus } from '../../../../../shared/ipc/contract-sync'
import { useSettings, useT } from '../../../app/context'
import { Notice, Spinner } from '../../../components/Feedback'
import { RememberSecretsChoice } from '../RememberSecretsChoice'
import { SyncSetupProblem } from './SyncSetupProblem'
import type { SyncSetupState } from './use-sync-setup'

interface Props {
  status: SyncStatus
  setup: SyncSetupState
}

/**
 * Sync is not set up: the repository, its token and this device's name; the first sync runs on "Set up
 * sync", with its progress shown. On failure everything typed stays, with the cause and what fixes it.
 */
export function SyncSetupForm({ status, setup }: Props): React.JSX.Element {
  const t = useT()
  const id = useId()
  const browserMode = useSettings((s) => s.info?.mode === 'browser')
  const remoteField = useRef<HTMLInputElement>(null)
  const tokenField = useRef<HTMLInputElement>(null)
  const draft = setup.draft ?? { remote: '', token: '', device: status.deviceName || status.hostName }
  const change = (patch: Partial<typeof draft>) => setup.setDraft({ ...draft, ...patch })
  const { busy, failure } = setup

  return (
    <form
      className="sync-setup"
      // The fields lay out as the group's own rows.
      style={{ display: 'contents' }}
      aria-busy={busy}
      onSubmit={(event) => {
        event.preventDefault()
        if (draft.remote.trim() && !busy) void setup.setUp(draft)
      }}
    >
      <div className="field" data-setting="sync.remote">
        <label className="field-label" htmlFor={`${id}-remote`}>
          {t('sync.remote')}
        </label>
        <input
          ref={remoteField}
          id={`${id}-remote`}
          className="text-input mono"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          value={draft.remote}
          placeholder="https://github.com/you/cairn-sync.git"
          aria-invalid={Boolean(failure && typeof failure !== 'string' && failure.code !== 'unauthorized')}
          readOnly={busy}
          onChange={(event) => change({ remote: event.target.value })}
        />
        <div className="field-hint">{t('sync.remoteHint')}</div>
      </div>
      <div className="field" data-setting="sync.token">
        <label className="field-label" htmlFor={`${id}-token`}>
          {t('sync.token')}
        </label>
        <input
          ref={tokenField}
          id={`${id}-token`}
          className="text-input"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={draft.token}
          aria-invalid={Boolean(failure && typeof failure !== 'string' && failure.code === 'unauthorized')}
          readOnly={busy}
          onChange={(event) => change({ token: event.target.value })}
        />
        <div className="field-hint">{browserMode ? t('sync.tokenHintBrowser') : t('sync.tokenHint')}</div>
        <RememberSecretsChoice />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-device`}>
          {t('sync.device')}
        </label>
        <input id={`${id}-device`} className="text-input" autoComplete="off" maxLength={100} value={draft.device} placeholder={status.hostName} readOnly={busy} onChange={(event) => change({ device: event.target.value })} />
        <div className="field-hint">{t('sync.deviceHint', { device: draft.device.trim() || status.hostName })}</div>
      </div>
      {busy ? (
        <Notice tone="info">
          {t('sync.connecting', { remote: draft.remote.trim() })}
          {status.phase ? ` ${t(`sync.phase.${status.phase}`)}` : ''}
        </Notice>
      ) : failure ? (
        <SyncSetupProblem failure={failure} onFix={(field) => (field === 'token' ? tokenField : remoteField).current?.focus()} />
      ) : null}
      <div className="card-actions">
        {busy ? <Spinner label={t('sync.settingUp')} /> : null}
        <span className="spacer" />
        <button type="submit" className="primary-button" disabled={!draft.remote.trim() || busy}>
          {busy ? t('sync.settingUp') : t('sync.setUp')}
        </button>
      </div>
    </form>
  )
}
