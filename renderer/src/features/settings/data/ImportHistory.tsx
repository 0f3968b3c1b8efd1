import { useState } from 'react'
import { useStore } from 'zustand'
import { localeOf } from '../../../../../shared/i18n'
import type { ImportBatchInfo } from '../../../../../shared/ipc/contract-import'
import { useT, useUi } from '../../../app/context'
import { Dialog } from '../../../components/Dialog'
import { Notice } from '../../../components/Feedback'
import { relativeTime, useNow } from '../../../lib/time'
import type { ImportsStore } from '../../../stores/imports'
import { sourceName } from './import-words'

/** Past imports, newest first, each with Undo (after a confirmation) and what its undo did. */
export function ImportHistory({ store }: { store: ImportsStore }): React.JSX.Element {
  const t = useT()
  const locale = localeOf(useUi((s) => s.language))
  const now = useNow()
  const batches = useStore(store, (s) => s.batches)
  const undone = useStore(store, (s) => s.undone)
  const busy = useStore(store, (s) => Boolean(s.activity?.running || s.activity?.learning.running))
  const learningOn = useStore(store, (s) => s.activity?.learningOn ?? false)
  const [confirming, setConfirming] = useState<ImportBatchInfo | null>(null)
  const [undoing, setUndoing] = useState(false)

  const undo = async (batch: ImportBatchInfo): Promise<void> => {
    setUndoing(true)
    await store.getState().undo(batch.id)
    setUndoing(false)
    setConfirming(null)
  }

  return (
    <div className="import-history">
      <h3 className="field-label">{t('import.history')}</h3>
      {undone ? (
        <Notice tone={undone.complete ? 'success' : 'warn'}>
          {t('import.undo.done', { id: undone.importId, reverted: undone.reverted, sessions: undone.sessionsRemoved, proposals: undone.proposalsWithdrawn })}
          {undone.sessionsKept ? ` ${t('import.undo.kept', { count: undone.sessionsKept })}` : ''}
          {undone.conflicts.length ? ` ${t('import.undo.conflicts', { count: undone.conflicts.length })}` : ''}
        </Notice>
      ) : null}
      {batches && batches.length === 0 ? <p className="muted">{t('import.historyEmpty')}</p> : null}
      {batches?.length ? (
        <ul className="import-batches">
          {batches.map((batch) => (
            <li key={batch.id} className="import-batch">
              <div className="import-batch-text">
                <span className="import-batch-name">
                  {t('import.batch', { id: batch.id })} · {sourceName(batch.source, t)} · {relativeTime(batch.startedAt, now, locale)}
                </span>
                <span className="field-hint mono import-batch-path">{batch.path}</span>
                <span className="field-hint">{batchState(batch, t, now, locale)}</span>
              </div>
              {batch.revertedAt === null && batch.unreviewed > 0 ? (
                <button type="button" className="ghost-button small" disabled={busy || !learningOn} onClick={() => void store.getState().learn(batch.id)}>
                  {t('import.learn.startBatch')}
                </button>
              ) : null}
              {batch.revertedAt === null ? (
                <button type="button" className="secondary-button small" disabled={busy} aria-label={t('import.undoLabel', { id: batch.id })} onClick={() => setConfirming(batch)}>
                  {t('import.undo')}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {confirming ? (
        <Dialog
          title={t('import.undo.title', { id: confirming.id })}
          onClose={() => setConfirming(null)}
          actions={
            <>
              <button type="button" className="ghost-button" data-autofocus onClick={() => setConfirming(null)}>
                {t('common.cancel')}
              </button>
              <button type="button" className="danger-button" disabled={undoing} onClick={() => void undo(confirming)}>
                {t('import.undo.confirm')}
              </button>
            </>
          }
        >
          <p>{t('import.undo.body')}</p>
        </Dialog>
      ) : null}
    </div>
  )
}

function batchState(batch: ImportBatchInfo, t: ReturnType<typeof useT>, now: number, locale: string): string {
  if (batch.revertedAt !== null) return t('import.batch.undone', { when: relativeTime(batch.revertedAt, now, locale) })
  if (batch.finishedAt === null) return t('import.batch.unfinished')
  const { memory, skills } = batch.counts
  const parts = [
    memory.added ? t('import.batch.memory', { count: memory.added }) : null,
    // Claude Code's memories only ever wait in the Inbox.
    batch.source === 'claude-code' && memory.proposed ? t('import.batch.memoryProposed', { count: memory.proposed }) : null,
    skills.created ? t('import.batch.skills', { count: skills.created }) : null,
    batch.conversations ? t(batch.source === 'openclaw' ? 'import.batch.notes' : 'import.batch.conversations', { count: batch.conversations }) : null
  ].filter((part): part is string => part !== null)
  const summary = parts.length ? parts.join(t('import.batch.separator')) : t('import.batch.nothing')
  return batch.problems ? `${summary} · ${t('import.batch.problems', { count: batch.problems })}` : summary
}
