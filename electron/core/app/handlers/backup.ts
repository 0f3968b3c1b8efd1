import { isAbsolute } from 'node:path'
import type { IpcHandlers } from '../../../../shared/ipc/contract'
import { IpcError } from '../../../../shared/ipc/define'
import { expandTilde } from '../../config/home'
import type { DataSlice } from './route-slices'

/** Settings → Data: the backup schedule, the last backup, and a backup made now (a failure is in the status's `lastError`). */
export function backupHandlers(app: DataSlice): Pick<IpcHandlers, 'backup.status' | 'backup.run' | 'backup.setSchedule'> {
  return {
    'backup.status': async () => app.backups.status(),
    'backup.run': async () => app.backups.runNow(),
    'backup.setSchedule': async ({ everyDays, keep, folder }) => {
      const chosen = folder.trim()
      if (chosen && !isAbsolute(expandTilde(chosen))) {
        throw IpcError.of('VALIDATION_FAILED', 'backup.folder_relative', { folder: chosen })
      }
      await app.core.config.update({ backup: { everyDays, keep, folder: chosen } })
      // A schedule that is due now (just switched on, or shortened) runs at once, in the background.
      void app.backups.check()
      return app.backups.status()
    }
  }
}
