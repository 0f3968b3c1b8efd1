import { useEffect, useId, useMemo } from 'react'
import { useStore } from 'zustand'
import type { ImportReportInfo, ImportSourceId } from '../../../../../shared/ipc/contract-import'
import { useApp, useT } from '../../../app/context'
import { Notice, Spinner } from '../../../components/Feedback'
import { createImportsStore, type ImportsStore } from '../../../stores/imports'
import { ImportHistory } from './ImportHistory'
import { ImportReportView } from './ImportReportView'
import { importFailureText, importProgress, lastImportFailureText, sourceLabel } from './import-words'
import { LearnImported } from './LearnImported'
import './import.css'

/**
 * Settings → Data → Import (a part of the Data card): choose a source and its location (the usual one filled in), preview
 * what would come in, import it in the background with progress, see past imports (with Undo), and
 * learn from imported conversations. Live through `import.changed`.
 */
export function ImportSection(): React.JSX.Element {
  const t = useT()
  const { client } = useApp()
  const store = useMemo(() => createImportsStore(client), [client])
  const sources = useStore(store, (s) => s.sources)
  const failure = useStore(store, (s) => s.failure)

  useEffect(() => {
    const off = client.on('import.changed', (activity) => store.getState().changed(activity))
    void store.getState().load()
    return off
  }, [client, store])

  return (
    <section className="import-section" aria-labelledby="settings-import">
      <h3 id="settings-import" className="import-heading" data-setting="import.title">
        {t('import.title')}
      </h3>
      <p className="muted">{t('import.lead')}</p>
      {sources ? (
        <>
          <ImportForm store={store} />
          <ImportHistory store={store} />
          <LearnImported store={store} />
        </>
      ) : failure ? null : (
        <Spinner label={t('common.loading')} />
      )}
      {failure ? <Notice tone="error">{importFailureText(failure, t)}</Notice> : null}
    </section>
  )
}

function ImportForm({ store }: { store: ImportsStore }): React.JSX.Element {
  const t = useT()
  const { ui } = useApp()
  const id = useId()
  const { sources, source, path, preview, previewing, activity } = useStore(store)
  const info = sources?.find((candidate) => candidate.id === source) ?? null
  const running = activity?.running ?? null
  const last = activity?.last ?? null
  const busy = previewing || running !== null
  const ready = source !== null && path.trim() !== '' && !busy
  const progress = running ? importProgress(running, t) : null

  return (
    <div className="import-form">
      <div className="field-row">
        <div className="field-text">
          <label className="field-label" htmlFor={`${id}-source`}>
            {t('import.source')}
          </label>
        </div>
        <select id={`${id}-source`} className="select" value={source ?? ''} disabled={busy} onChange={(event) => store.getState().chooseSource(event.target.value as ImportSourceId)}>
          {(sources ?? []).map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {sourceLabel(candidate.id, t)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-path`}>
          {t('import.location')}
        </label>
        <div className="import-path">
          <input
            id={`${id}-path`}
            className="text-input mono"
            value={path}
            disabled={busy}
            spellCheck={false}
            onChange={(event) => store.getState().setPath(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && ready) void store.getState().runPreview()
            }}
          />
          <button type="button" className="secondary-button" disabled={busy || !source} onClick={() => void store.getState().pick()}>
            {t('import.choose')}
          </button>
        </div>
        <div className="field-hint">
          {info ? t(info.pick === 'file' ? 'import.locationHint.file' : 'import.locationHint.folder') : null}
          {info?.defaultPath ? ` ${t(info.found ? 'import.found' : 'import.notFound', { path: info.defaultPath })}` : null}
        </div>
      </div>
      <div className="card-actions">
        <button type="button" className="secondary-button" disabled={!ready} onClick={() => void store.getState().runPreview()}>
          {previewing ? t('import.previewing') : t('import.preview')}
        </button>
        <button type="button" className="primary-button" disabled={!ready} onClick={() => void store.getState().runImport()}>
          {t('import.run')}
        </button>
        {previewing ? <Spinner label={t('import.previewing')} /> : null}
      </div>
      {preview ? <ImportReportView report={preview} title={t('import.previewTitle')} /> : null}
      {running && progress ? (
        <div className="import-progress" aria-live="polite">
          <span>
            {t('import.running')} {progress.text}
          </span>
          <progress aria-label={t('import.running')} max={1} {...(progress.ratio === null ? {} : { value: progress.ratio })} />
        </div>
      ) : null}
      {!running && last && !preview ? (
        last.report ? (
          <ImportReportView
            report={last.report}
            // No id: everything there was imported before, and no batch was kept.
            title={last.report.importId === null ? t('import.nothingNewTitle') : t('import.resultTitle', { id: last.report.importId })}
            actions={
              // Conversations alone are not timeline changes: the button is for memory and skills that came in.
              onTimeline(last.report) ? (
                <button type="button" className="secondary-button small" onClick={() => ui.getState().navigate('timeline')}>
                  {t('import.openTimeline')}
                </button>
              ) : undefined
            }
          />
        ) : (
          <Notice tone="error">{lastImportFailureText(last, t)}</Notice>
        )
      ) : null}
    </div>
  )
}

function onTimeline(report: ImportReportInfo): boolean {
  return report.counts.memory.added + report.counts.skills.created > 0
}
