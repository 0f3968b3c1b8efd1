import { useState } from 'react'
import type { SyncProblemCode, SyncStatus } from '../../../../../shared/ipc/contract-sync'
import { useApp } from '../../../app/context'
import { describeError } from '../../../ipc/error-words'

export interface SyncSetupDraft {
  remote: string
  token: string
  device: string
}

/** Why the setup failed: its code, and the cause as its key and figures where the engine gave one. */
export type SyncSetupFailure = { code: SyncProblemCode; message: string; key?: string; params?: Record<string, string | number> } | string

/**
 * The setup form's state, held by Settings → Data → Sync rather than by the form: while the first sync
 * runs the status already names the remote (the engine writes it first, and puts it back on failure),
 * and a form that lived only while sync was not set up lost what was typed and why it failed.
 */
export function useSyncSetup(onStatus: (status: SyncStatus) => void) {
  const { client } = useApp()
  const [draft, setDraft] = useState<SyncSetupDraft | null>(null)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<SyncSetupFailure | null>(null)
  const [done, setDone] = useState<string | null>(null)

  const setUp = async (typed: SyncSetupDraft): Promise<void> => {
    const remote = typed.remote.trim()
    // Said here, in the user's words, rather than as the contract's refusal.
    if (!/^https?:\/\/\S+$/i.test(remote)) return setFailure({ code: 'unsupported_remote', message: '' })
    setBusy(true)
    setFailure(null)
    setDone(null)
    try {
      const token = typed.token.trim()
      const result = await client.request('sync.setup', { remote, deviceName: typed.device.trim(), ...(token ? { token } : {}) })
      if (result.ok) {
        setDraft(null)
        setDone(result.status.remote)
      } else {
        setFailure({ code: result.code, message: result.error, key: result.key, params: result.params })
      }
      onStatus(result.status)
    } catch (error) {
      setFailure(describeError(error))
    } finally {
      setBusy(false)
    }
  }

  return { draft, setDraft, busy, failure, setFailure, done, setUp }
}
export type SyncSetupState = ReturnType<typeof useSyncSetup>
