import { useEffect, useId, useState } from 'react'
import type { SyncStatus } from '../../../../../shared/ipc/contract-sync'
import { useApp, useT } from '../../../app/context'
import { Notice, Spinner } from '../../../components/Feedback'
import { describeError } from '../../../ipc/error-words'
import { SyncedPanel } from './SyncedPanel'
import { SyncSetupForm } from './SyncSetupForm'
import { useSyncSetup } from './use-sync-setup'

/** Settings → Data: sync of memory and skills over git; the setup form, or the sync's state and actions (live through `sync.changed`). */
export function SyncSection(): React.JSX.Element {
  const t = useT()
  const { client } = useApp()
  const id = useId()
  const [status, setStatus] = useState<SyncStatus | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const setup = useSyncSetup(setStatus)

  useEffect(() => {
    const off = client.on('sync.changed', setStatus)
    client.request('sync.status').then(setStatus, (error: unknown) => setProblem(describeError(error)))
    return off
  }, [client])

  // The form stays while its first sync runs (the status names the remote already) and after it failed.
  const synced = status?.remote && !setup.busy && !setup.failure
  return (
    <section className="field-group sync-section" aria-labelledby={`${id}-title`}>
      <div className="field-group-head">
        <h3 id={`${id}-title`} className="field-group-title" data-setting="sync.title">
          {t('sync.title')}
        </h3>
        <p className="field-hint">{t('sync.lead')}</p>
      </div>
      {setup.done && synced ? (
        <Notice tone="success">
          {t('sync.setupDone', { remote: setup.done })}
        </Notice>
      ) : null}
      {!status ? problem ? null : <Spinner label={t('common.loading')} /> : synced ? <SyncedPanel status={status} onStatus={setStatus} /> : <SyncSetupForm status={status} setup={setup} />}
      {problem ? <Notice tone="error">{problem}</Notice> : null}
    </section>
  )
}
