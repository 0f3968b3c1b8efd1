import { useEffect, useState } from 'react'
import type { ProviderPreset } from '../../../../shared/config'
import { describeProviderProblem } from '../../../../shared/i18n/describe'
import type { ProviderProblem } from '../../../../shared/ipc/domain'
import { useApp, useSettings, useT } from '../../app/context'
import { Icon, Logo } from '../../components/Icon'
import { Notice } from '../../components/Feedback'
import { connectionTestText } from '../settings/connection-test'

/** First run: what is missing before Cairn can answer, and a one-click local model if one is running. */
export function SetupCard({ problem }: { problem: ProviderProblem }): React.JSX.Element {
  const t = useT()
  const { settings, ui } = useApp()
  const local = useSettings((s) => s.local)
  const [busy, setBusy] = useState<ProviderPreset | null>(null)
  const [failure, setFailure] = useState<string | null>(null)

  useEffect(() => {
    void settings.getState().detectLocal()
  }, [settings])

  const useLocal = async (preset: 'ollama' | 'lmstudio'): Promise<void> => {
    setBusy(preset)
    setFailure(null)
    const state = settings.getState()
    const saved = await state.update({ provider: { preset, baseURL: '' } })
    if (saved) {
      const test = await state.testConnection({ preset })
      const model = settings.getState().view?.config.provider.model
      if (test.models.length && (!model || !test.models.includes(model))) await state.update({ provider: { model: test.models[0] } })
      if (!test.ok && !test.models.length) setFailure(connectionTestText(test, t))
    } else setFailure(settings.getState().saveError)
    setBusy(null)
  }

  const found = (['ollama', 'lmstudio'] as const).filter((preset) => local?.[preset])
  return (
    <div className="setup-card">
      <div className="setup-logo">
        <Logo size={34} />
      </div>
      <h2>{t('setup.title')}</h2>
      <p className="setup-lead">{t('setup.lead')}</p>
      <Notice tone="info">{describeProviderProblem(problem, t)}</Notice>
      {found.map((preset) => (
        <div className="setup-local" key={preset}>
          <Icon name="plug" size={18} />
          <span>{t('setup.localFound', { name: t(preset === 'ollama' ? 'preset.ollama' : 'preset.lmstudio') })}</span>
          <button type="button" className="primary-button" disabled={busy !== null} onClick={() => void useLocal(preset)}>
            {busy === preset ? t('setup.connecting') : t('setup.useLocal', { name: t(preset === 'ollama' ? 'preset.ollama' : 'preset.lmstudio') })}
          </button>
        </div>
      ))}
      {failure ? <Notice tone="error">{failure}</Notice> : null}
      <div className="setup-actions">
        <button type="button" className={found.length ? 'secondary-button' : 'primary-button'} onClick={() => ui.getState().openSettings('provider')}>
          {t('setup.openSettings')}
        </button>
      </div>
    </div>
  )
}
