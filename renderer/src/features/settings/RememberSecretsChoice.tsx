import { useState } from 'react'
import { useApp, useSettings, useT } from '../../app/context'
import { Switch } from '../../components/Controls'
import { Notice } from '../../components/Feedback'
import { describeError } from '../../ipc/error-words'

/**
 * Browser mode: how long a typed key or token is kept, said plainly, and the one choice that keeps them
 * all across restarts of `cairn serve` (a file in the data home only this user may read). Shown beside
 * every key and token field; it is the same choice everywhere.
 */
export function RememberSecretsChoice(): React.JSX.Element | null {
  const t = useT()
  const { client, settings } = useApp()
  const choice = useSettings((s) => s.view?.rememberSecrets)
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  if (!choice) return null

  const change = async (remember: boolean): Promise<void> => {
    setBusy(true)
    try {
      settings.setState({ view: await client.request('settings.rememberSecrets', { remember }) })
      setProblem(null)
    } catch (error) {
      setProblem(describeError(error))
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="remember-secrets">
      {choice.remember ? null : <p className="field-hint">{t('secrets.keptUntilStop')}</p>}
      <Switch label={t('secrets.remember')} hint={t('secrets.rememberHint', { file: choice.file })} checked={choice.remember} disabled={busy} onChange={(on) => void change(on)} />
      {problem ? <Notice tone="error">{problem}</Notice> : null}
    </div>
  )
}
