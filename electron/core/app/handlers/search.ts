import type { IpcHandlers } from '../../../../shared/ipc/contract'
import type { AppContext } from '../app-context'
import type { SearchUpkeep } from '../search-upkeep'

type SearchRoutes = 'search.status' | 'search.fillMeaning' | 'search.pauseMeaning'

/** Settings → Search: the word index's backlog and search by meaning, with "Fill now" and "Pause" for the meaning backfill. */
export function searchHandlers(app: AppContext & { searchUpkeep: SearchUpkeep }): Pick<IpcHandlers, SearchRoutes> {
  const upkeep = app.searchUpkeep
  return {
    'search.status': async () => upkeep.watch(),
    // While search by meaning is off this fills nothing: the status it answers says it is off.
    'search.fillMeaning': async () => upkeep.fillMeaning(),
    'search.pauseMeaning': async () => upkeep.pauseMeaning()
  }
}
