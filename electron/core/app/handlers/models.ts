import type { IpcHandlers } from '../../../../shared/ipc/contract'
import { ModelListCache, modelCacheFile } from '../../provider/model-list'
import type { ConversationSlice } from './route-slices'

/** The model switcher's list: cached in the data home, fetched for a new provider address or on request. */
export function modelHandlers(app: ConversationSlice, cache = new ModelListCache(modelCacheFile(app.core.paths.root))): Pick<IpcHandlers, 'models.list'> {
  return {
    'models.list': async ({ refresh }) => {
      const settings = app.providerSettings()
      const list = await cache.list(settings, { refresh })
      return { ...list, defaultModel: settings.model }
    }
  }
}
