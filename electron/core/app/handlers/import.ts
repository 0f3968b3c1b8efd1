import { isAbsolute, resolve } from 'node:path'
import type { IpcHandlers } from '../../../../shared/ipc/contract'
import type { ImportBatchInfo, ImportSourceId } from '../../../../shared/ipc/contract-import'
import { importSourceIds } from '../../../../shared/ipc/contract-import'
import { IpcError } from '../../../../shared/ipc/define'
import { expandTilde } from '../../config/home'
import { ImportBatches, ImportSourceError, undoImport, undoRefusal } from '../../import'
import { LearnImportedBusyError, LearningOffError } from '../../learning/host/learn-imported'
import type { DataSlice } from './route-slices'
import { ImportBusyError, UnknownImportSourceError, type AppImports } from '../import-activity'

type ImportRoutes = 'import.sources' | 'import.pick' | 'import.preview' | 'import.run' | 'import.status' | 'import.list' | 'import.undo' | 'import.learn' | 'import.learnCancel'

/** Settings → Data: imports from other assistants (preview, run, list, undo) and learning from imported conversations. */
export function importHandlers(app: DataSlice): Pick<IpcHandlers, ImportRoutes> {
  const { imports } = app
  return {
    'import.sources': async () => ({ sources: imports.sources() }),
    'import.pick': async ({ source, defaultPath }) => {
      const { platform } = app.options
      const kind = await guard(() => imports.pickKind(source))
      const picker = kind === 'file' ? platform.pickFile : platform.pickFolder
      if (!picker) throw IpcError.of('UNSUPPORTED', 'picker.no_file', {})
      const options = kind === 'file' ? { defaultPath, filters: [{ name: 'Export', extensions: ['zip', 'json'] }] } : { defaultPath }
      return { path: await picker(options) }
    },
    'import.preview': async ({ source, path }) => guard(() => imports.preview(source, checkedPath(path))),
    'import.run': async ({ source, path }) => guard(() => imports.start(source, checkedPath(path))),
    'import.status': async () => imports.activity(),
    'import.list': async () => ({ batches: listBatches(app, imports) }),
    'import.undo': async ({ id }) => {
      const batch = new ImportBatches(app.core.db).get(id)
      if (!batch) throw IpcError.of('NOT_FOUND', 'import.missing', { id })
      if (batch.revertedAt !== null) throw IpcError.of('IMPORT_ALREADY_UNDONE', 'import.already_undone', { id })
      // A batch still coming in (or being learned from) is undone once that ends, not under its feet.
      if (imports.isRunning() || imports.learning.status().running) throw IpcError.of('BUSY', 'import.busy_undo', { id })
      const result = await undoImport(app.core, id)
      if (!result.ok) throw IpcError.carrying('CONFLICT', undoRefusal(app.core.db, id) ?? new Error(result.error), { id })
      app.emit('sessions.changed', { sessionId: '' })
      imports.emit()
      const { ok: _ok, ...undone } = result
      return undone
    },
    'import.learn': async ({ importId }) => {
      if (importId !== undefined && !new ImportBatches(app.core.db).get(importId)) throw IpcError.of('NOT_FOUND', 'import.missing', { id: importId })
      await guard(() => imports.learning.start(importId))
      return imports.activity()
    },
    'import.learnCancel': async () => {
      imports.learning.cancel()
      return imports.activity()
    }
  }
}

/** A typed or picked location: `~` expanded, and it must be a full path (the app's working folder means nothing to the user). */
function checkedPath(path: string): string {
  const expanded = expandTilde(path.trim())
  if (!isAbsolute(expanded)) throw IpcError.of('IMPORT_PATH_RELATIVE', 'import.path_relative', { path })
  return resolve(expanded)
}

/** The core's refusals as coded errors the renderer words; anything else stays an INTERNAL failure. */
async function guard<T>(run: () => T | Promise<T>): Promise<Awaited<T>> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof IpcError) throw error
    if (error instanceof ImportSourceError) throw IpcError.carrying('IMPORT_SOURCE', error)
    if (error instanceof ImportBusyError || error instanceof LearnImportedBusyError) throw new IpcError('BUSY', error.message)
    if (error instanceof LearningOffError) throw new IpcError('LEARNING_OFF', error.message)
    if (error instanceof UnknownImportSourceError) throw IpcError.carrying('VALIDATION_FAILED', error)
    throw error
  }
}

function listBatches(app: DataSlice, imports: AppImports): ImportBatchInfo[] {
  const counts = new Map<number, number>()
  for (const row of app.core.db.prepare('SELECT import_id AS id, COUNT(*) AS n FROM sessions WHERE import_id IS NOT NULL GROUP BY import_id').all() as Array<{ id: number; n: number }>) {
    counts.set(row.id, row.n)
  }
  const unreviewed = imports.learning.unreviewedByBatch()
  return new ImportBatches(app.core.db)
    .list()
    .filter((batch) => (importSourceIds as readonly string[]).includes(batch.source))
    .map((batch) => ({
      id: batch.id,
      source: batch.source as ImportSourceId,
      path: batch.path,
      startedAt: batch.startedAt,
      finishedAt: batch.finishedAt,
      revertedAt: batch.revertedAt,
      counts: batch.counts,
      problems: batch.problems.length,
      conversations: counts.get(batch.id) ?? 0,
      unreviewed: unreviewed.get(batch.id) ?? 0
    }))
}
