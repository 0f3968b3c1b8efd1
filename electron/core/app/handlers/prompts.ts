import type { IpcHandlers } from '../../../../shared/ipc/contract'
import { IpcError } from '../../../../shared/ipc/define'
import { PromptError, PromptStore } from '../../prompts'
import type { LibrarySlice } from './route-slices'

type PromptRoutes = 'prompts.list' | 'prompts.save' | 'prompts.delete'

const CODES = { exists: 'CONFLICT', missing: 'NOT_FOUND', refused: 'VALIDATION_FAILED', invalid: 'VALIDATION_FAILED', link: 'VALIDATION_FAILED' } as const

/** The prompt library (`<home>/prompts/`), read from disk at each call so edits made elsewhere show up. */
export function promptHandlers(app: LibrarySlice): Pick<IpcHandlers, PromptRoutes> {
  const store = (): PromptStore => new PromptStore(app.core.paths.root)
  const keyed = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run()
    } catch (error) {
      if (error instanceof PromptError) throw IpcError.carrying(CODES[error.code], error)
      throw error
    }
  }
  return {
    'prompts.list': async () => store().list(),
    'prompts.save': ({ previousName, ...prompt }) => keyed(() => store().save(prompt, { previousName })),
    'prompts.delete': ({ name }) =>
      keyed(async () => {
        await store().delete(name)
        return { ok: true as const }
      })
  }
}
