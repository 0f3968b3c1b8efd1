import { useEffect, useId, useState } from 'react'
import { formatBytes } from '../../../../shared/attachments'
import { localeOf } from '../../../../shared/i18n'
import type { BackupStatus } from '../../../../shared/ipc/contract-backup'
import { useApp, useT, useUi } from '../../app/context'
import { Notice, Spinner } from '../../components/Feedback'
import { describeError } from '../../ipc/error-words'
import { relativeTime, useNow } from '../../lib/time'
import { ImportSection } from './data/ImportSection'
import { SyncSection } from './sync/SyncSection'

/** The schedules offered; a value set in config.json by hand is offered too. */
const SCHEDULES = [0, 1, 3, 7, 30]

interface Draft {
  everyDays: number
  keep: string
  folder: string
}

/** Settings → Data: the backup schedule, the last backup in the folder, and a backup made now (live through `backup.changed`). */
export function DataSection(): React.JSX.Element {
  const t = useT()
  const { client } = useApp()
  const locale = localeOf(useUi((s) => s.language))
  const now = useNow()
  const id = useId()
  const [status, setStatus] = useState<BackupStatus | null>(null)
  const [draft, setDraft] = useState<Draft | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)

  useEffect(() => {
    const off = client.on('backup.changed', setStatus)
    client.request('backup.status').then(setStatus, (error: unknown) => setProblem(describeError(error)))
    return off
  }, [client])

  const saved: Draft | null = status ? { everyDays: status.everyDays, keep: String(status.keep), folder: configuredFolder(status) } : null
  const shown = draft ?? saved
  const keep = Number(shown?.keep)
  const keepValid = Number.isInteger(keep) && keep >= 1 && keep <= 1000
  const dirty = draft !== null && saved !== null && (draft.everyDays !== saved.everyDays || draft.keep !== saved.keep || draft.folder.trim() !== saved.folder)

  const act = async (request: () => Promise<BackupStatus>): Promise<void> => {
    setSaving(true)
    try {
      setStatus(await request())
      setDraft(null)
      setProblem(null)
    } catch (error) {
      setProblem(describeError(error))
    } finally {
      setSaving(false)
    }
  }
  const save = () => shown && act(() => client.request('backup.setSchedule', { everyDays: shown.everyDays, keep, folder: shown.folder.trim() }))
  const change = (patch: Partial<Draft>) => shown && setDraft({ ...shown, ...patch })

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <header className="card-head">
        <div>
          <h2 id={`${id}-title`} data-setting="backup.title">{t('backup.title')}</h2>
          <p className="muted">{t('backup.lead')}</p>
        </div>
      </header>
      {shown && status ? (
        <>
          <div className="field-row" data-setting="backup.schedule">
            <div className="field-text">
              <label className="field-label" htmlFor={`${id}-every`}>
                {t('backup.schedule')}
              </label>
            </div>
            <select id={`${id}-every`} className="select" value={shown.everyDays} onChange={(event) => change({ everyDays: Number(event.target.value) })}>
              {[...new Set([...SCHEDULES, shown.everyDays])].sort((a, b) => a - b).map((days) => (
                <option key={days} value={days}>
                  {days === 0 ? t('backup.off') : days === 1 ? t('backup.everyDay') : t('backup.everyDays', { count: days })}
                </option>
              ))}
            </select>
          </div>
          <div className="field-row">
            <div className="field-text">
              <label className="field-label" htmlFor={`${id}-keep`}>
                {t('backup.keep')}
              </label>
              <p className="field-hint">{t('backup.keepHint')}</p>
            </div>
            <input
              id={`${id}-keep`}
              className="text-input number"
              type="number"
              min={1}
              max={1000}
              step={1}
              value={shown.keep}
              aria-invalid={!keepValid}
              onChange={(event) => change({ keep: event.target.value })}
            />
          </div>
          <div className="field" data-setting="backup.folder">
            <label className="field-label" htmlFor={`${id}-folder`}>
              {t('backup.folder')}
            </label>
            <input id={`${id}-folder`} className="text-input mono" value={shown.folder} placeholder={status.defaultFolder} onChange={(event) => change({ folder: event.target.value })} />
            <div className="field-hint">{t('backup.folderHint', { folder: status.defaultFolder })}</div>
          </div>
          <p className="muted" aria-live="polite">
            {status.last
              ? t('backup.last', { when: relativeTime(status.last.at, now, locale), file: baseName(status.last.file), size: formatBytes(status.last.bytes) })
              : t('backup.none')}
            {status.nextDueAt !== null ? ` ${t('backup.next', { when: relativeTime(Math.max(status.nextDueAt, now), now, locale) })}` : ''}
          </p>
          {status.lastError ? <Notice tone="error">{t('backup.failed', { message: status.lastError })}</Notice> : null}
          <p className="field-hint">{t('backup.restoreHint')}</p>
          <div className="card-actions">
            <button type="button" className="secondary-button" disabled={status.running || saving} onClick={() => void act(() => client.request('backup.run'))}>
              {status.running ? t('backup.running') : t('backup.now')}
            </button>
            {status.running ? <Spinner label={t('backup.running')} /> : null}
            <span className="spacer" />
            {dirty ? (
              <button type="button" className="ghost-button" onClick={() => setDraft(null)}>
                {t('common.discard')}
              </button>
            ) : null}
            <button type="button" className="primary-button" disabled={!dirty || !keepValid || saving} onClick={() => void save()}>
              {t('backup.save')}
            </button>
          </div>
        </>
      ) : problem ? null : (
        <Spinner label={t('common.loading')} />
      )}
      {problem ? <Notice tone="error">{problem}</Notice> : null}
      <ImportSection />
      <SyncSection />
    </section>
  )
}

/** The status carries the resolved folder; the field shows the folder the user chose (empty for the default). */
function configuredFolder(status: BackupStatus): string {
  return status.folder === status.defaultFolder ? '' : status.folder
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path
}
