import { useEffect, useId, useState } from 'react'
import type { ProviderPreset } from '../../../../shared/config'
import { useApp, useSettings, useT } from '../../app/context'
import { Segmented } from '../../components/Controls'
import { Notice } from '../../components/Feedback'
import { Icon } from '../../components/Icon'
import { ApiKeyField } from './ApiKeyField'
import { LearningModelFields, type LearningModelDraft } from './LearningModelFields'
import { connectionTestText } from './connection-test'
import { localPresetList, presetLabel, presetOrder, presetURLs } from './presets'

interface Draft extends LearningModelDraft {
  preset: ProviderPreset
  baseURL: string
  model: string
}

/** Where answers come from: preset, base URL, model (picked from what the server lists), key, and a test. */
export function ProviderSection(): React.JSX.Element | null {
  const t = useT()
  const { settings } = useApp()
  const provider = useSettings((s) => s.view?.config.provider)
  const learning = useSettings((s) => s.view?.config.learning)
  const models = useSettings((s) => s.models)
  const test = useSettings((s) => s.test)
  const testing = useSettings((s) => s.testing)
  const saving = useSettings((s) => s.saving)
  const saveError = useSettings((s) => s.saveError)
  const [draft, setDraft] = useState<Draft | null>(null)
  // Typed keys are drafts like the rest: the one Save stores them (a key that passed the test included).
  const [keyDraft, setKeyDraft] = useState('')
  const [learningKeyDraft, setLearningKeyDraft] = useState('')
  const [manualModel, setManualModel] = useState(false)
  const urlId = useId()
  const modelId = useId()

  const saved: Draft | null = provider
    ? { preset: provider.preset, baseURL: provider.baseURL, model: provider.model, learningModel: learning?.model ?? '', learningBaseURL: learning?.baseURL ?? '' }
    : null
  const current = draft ?? saved
  // Settings changed elsewhere while nothing is being edited here: show them.
  useEffect(() => setDraft(null), [provider?.preset, provider?.baseURL, provider?.model, learning?.model, learning?.baseURL])
  if (!current || !saved) return null

  const configDirty = (Object.keys(saved) as Array<keyof Draft>).some((key) => current[key] !== saved[key])
  const dirty = configDirty || Boolean(keyDraft.trim() || learningKeyDraft.trim())
  const custom = current.preset === 'custom'
  const shownURL = custom ? current.baseURL : current.baseURL || presetURLs[current.preset]
  const needsKey = !localPresetList.includes(current.preset)
  const modelChoices = models.length ? [...new Set([...(current.model && !models.includes(current.model) ? [current.model] : []), ...models])] : []

  const edit = (patch: Partial<Draft>): void => setDraft({ ...current, ...patch })
  /** Settings first, then each typed key; whatever fails stays in its field, with the reason below. */
  const save = async (): Promise<void> => {
    const store = settings.getState()
    if (configDirty) {
      const ok = await store.update({
        provider: { preset: current.preset, baseURL: custom ? current.baseURL.trim() : '', model: current.model.trim() },
        ...(current.learningModel !== saved.learningModel || current.learningBaseURL !== saved.learningBaseURL
          ? { learning: { model: current.learningModel.trim(), baseURL: current.learningBaseURL.trim() } }
          : {})
      })
      if (!ok) return
      setDraft(null)
    }
    if (keyDraft.trim()) {
      if (!(await store.setApiKey(keyDraft.trim()))) return
      setKeyDraft('')
    }
    if (learningKeyDraft.trim()) {
      if (!(await store.setApiKey(learningKeyDraft.trim(), 'learning'))) return
      setLearningKeyDraft('')
    }
  }
  const discard = (): void => {
    setDraft(null)
    setKeyDraft('')
    setLearningKeyDraft('')
  }
  const runTest = (): void => {
    void settings.getState().testConnection({
      preset: current.preset,
      ...(shownURL ? { baseURL: shownURL.trim() } : {}),
      ...(current.model ? { model: current.model.trim() } : {}),
      ...(keyDraft.trim() ? { apiKey: keyDraft.trim() } : {})
    })
  }

  return (
    <section className="card" aria-labelledby="settings-provider">
      <header className="card-head">
        <div>
          <h2 id="settings-provider" data-setting="settings.provider.title">{t('settings.provider.title')}</h2>
          <p className="muted">{t('settings.provider.lead')}</p>
        </div>
      </header>
      <div className="field" data-setting="settings.provider.preset">
        <span className="field-label">{t('settings.provider.preset')}</span>
        <Segmented
          label={t('settings.provider.preset')}
          value={current.preset}
          options={presetOrder.map((preset) => ({ value: preset, label: t(presetLabel[preset]) }))}
          onChange={(preset) => edit({ preset, baseURL: preset === 'custom' ? current.baseURL || shownURL : '' })}
        />
      </div>
      <div className="field" data-setting="settings.provider.baseURL">
        <label className="field-label" htmlFor={urlId}>
          {t('settings.provider.baseURL')}
        </label>
        <input
          id={urlId}
          className="text-input mono"
          value={shownURL}
          readOnly={!custom}
          placeholder="https://example.com/v1"
          spellCheck={false}
          onChange={(event) => edit({ baseURL: event.target.value })}
        />
        <div className="field-hint">{custom ? t('settings.provider.baseURLCustom') : t('settings.provider.baseURLPreset')}</div>
      </div>
      <div className="field" data-setting="settings.provider.model">
        <label className="field-label" htmlFor={modelId}>
          {t('settings.provider.model')}
        </label>
        <div className="input-row">
          {modelChoices.length && !manualModel ? (
            <select id={modelId} className="select" value={current.model} onChange={(event) => edit({ model: event.target.value })}>
              {current.model ? null : <option value="">{t('settings.provider.chooseModel')}</option>}
              {modelChoices.map((model) => (
                <option key={model} value={model}>
                  {model}
                </option>
              ))}
            </select>
          ) : (
            <input id={modelId} className="text-input mono" value={current.model} placeholder={t('settings.provider.modelPlaceholder')} spellCheck={false} onChange={(event) => edit({ model: event.target.value })} />
          )}
          {modelChoices.length ? (
            <button type="button" className="ghost-button" onClick={() => setManualModel(!manualModel)}>
              {manualModel ? t('settings.provider.pickFromList') : t('settings.provider.typeModel')}
            </button>
          ) : null}
        </div>
        <div className="field-hint">{modelChoices.length ? t('settings.provider.modelsFound', { count: models.length }) : t('settings.provider.modelHint')}</div>
      </div>
      <ApiKeyField draft={keyDraft} onDraft={setKeyDraft} onSubmit={() => void save()} needed={needsKey} />
      <LearningModelFields
        draft={current}
        chatModel={current.model.trim()}
        chatURL={shownURL}
        onChange={edit}
        keyDraft={learningKeyDraft}
        onKeyDraft={setLearningKeyDraft}
        onSubmit={() => void save()}
      />
      <div className="card-actions">
        <button type="button" className="secondary-button" disabled={testing} onClick={runTest}>
          <Icon name="plug" size={16} />
          {testing ? t('settings.provider.testing') : t('settings.provider.test')}
        </button>
        <span className="spacer" />
        {dirty ? (
          <button type="button" className="ghost-button" onClick={discard}>
            {t('common.discard')}
          </button>
        ) : null}
        <button type="button" className="primary-button" disabled={!dirty || saving} onClick={() => void save()}>
          {saving ? t('common.saving') : t('common.save')}
        </button>
      </div>
      {test ? (
        <Notice tone={test.ok ? 'success' : 'error'}>
          <strong>{test.ok ? t('settings.provider.testOk') : t('settings.provider.testFailed')}</strong> {connectionTestText(test, t)}
        </Notice>
      ) : null}
      {saveError ? <Notice tone="error">{saveError}</Notice> : null}
    </section>
  )
}
