import { useState } from 'react'
import { describeError } from '../../../ipc/error-words'

/**
 * A dialog's save: runs the work, closes the dialog when it succeeds, and keeps it open with the
 * error (and the button usable again) when it fails, so nothing the user typed is lost.
 */
export function useSaveAndClose(onClose: () => void) {
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const save = async (work: () => Promise<unknown>): Promise<void> => {
    setSaving(true)
    setError(null)
    try {
      await work()
      onClose()
    } catch (failure) {
      setError(describeError(failure))
      setSaving(false)
    }
  }
  return { error, setError, saving, save }
}
