import type { IpcHandlers } from '../../../../shared/ipc/contract'
import type { DataSlice } from './route-slices'

type SyncRoute = 'sync.status' | 'sync.run' | 'sync.setup' | 'sync.setToken' | 'sync.setSchedule' | 'sync.leave'

/** Settings → Data: sync with a git remote. Inputs are checked by the contract's schemas; failures are data in the answers. */
export function syncHandlers(app: DataSlice): Pick<IpcHandlers, SyncRoute> {
  return {
    'sync.status': async () => app.syncs.status(),
    'sync.run': async () => app.syncs.runNow(),
    'sync.setup': async ({ remote, token, branch, deviceName, username }) =>
      app.syncs.setup({ remote, branch: branch || undefined, deviceName, username: username || undefined }, token),
    'sync.setToken': async ({ token }) => app.syncs.setToken(token),
    'sync.setSchedule': async ({ everyMinutes }) => app.syncs.setSchedule(everyMinutes),
    'sync.leave': async () => app.syncs.leave()
  }
}
