import { useId, useState } from 'react'
import type { CairnConfig } from '../../../../../shared/config'
import type { EmbeddingTest } from '../../../../../shared/ipc/contract-search'
import { useApp, useSettings, useT } from '../../../app/context'
import { Notice, Spinner } from '../../../components/Feedback'
import { describeError } from '../../../ipc/error-words'
import { ApiKeyField } from '../ApiKeyField'
import { embeddingTestText, parseDimensions } from './search-words'

/** The fields as typed: dimensions stay text so a half-typed or wrong value is kept, and only checked on Save or Test. */
export interface EmbeddingDraft {
  model: string
  baseURL: string
  dimensions: string
}

export function draftOf(search: CairnConfig['search']): EmbeddingDraft {
  return { model: search.embeddingModel, baseURL: search.embeddingBaseURL, dimensions: String(search.embeddingDimensions) }
}

type TestOutcome = EmbeddingTest | { ok: false; code: 'request_failed'; message: string }

/**
 * Search by meaning's settings, edited here and saved through `settings.update` (the embedding key
 * through `settings.setApiKey`, by the same Save). "Test" embeds one short text with what is typed,
 * saved or not. Whatever fails, the fields keep what the user typed.
 */
export function EmbeddingFields({ search }: { search: CairnConfig['search'] }): React.JSX.Element {
  const t = useT()
  const id = useId()
  const { client, settings } = useApp()
  const chatURL = useSettings((s) => s.view?.config.provider.baseURL ?? '')
  const hasKeyField = useSettings((s) => Boolean(s.view?.embeddingKey))
  const saving = useSettings((s) => s.saving)
  // This section's own failure (the store's saveError is shared with Settings → Provider).
  const [problem, setProblem] = useState<string | null>(null)
  const [draft, setDraft] = useState<EmbeddingDraft>(() => draftOf(search))
  const [keyDraft, setKeyDraft] = useState('')
  const [invalid, setInvalid] = useState(false)
  const [saved, setSaved] = useState(false)
  const [testing, setTesting] = useState(false)
  const [test, setTest] = useState<TestOutcome | null>(null)
  const ownEndpoint = Boolean(draft.baseURL.trim() || search.embeddingBaseURL)

  const edit = (patch: Partial<EmbeddingDraft>): void => {
    setDraft((current) => ({ ...current, ...patch }))
    setSaved(false)
    if (patch.dimensions !== undefined) setInvalid(false)
  }

  const checkedDimensions = (): number | null => {
    const dimensions = parseDimensions(draft.dimensions)
    setInvalid(dimensions === null)
    return dimensions
  }

  const save = async (): Promise<void> => {
    const dimensions = checkedDimensions()
    if (dimensions === null || saving) return
    const ok = await settings.getState().update({ search: { embeddingModel: draft.model.trim(), embeddingBaseURL: draft.baseURL.trim(), embeddingDimensions: dimensions } })
    setProblem(ok ? null : settings.getState().saveError)
    if (!ok) return
    // The key matters only for a server of its own; it is cleared once stored, as in Settings → Provider.
    if (keyDraft.trim() && draft.baseURL.trim()) {
      if (!(await settings.getState().setApiKey(keyDraft.trim(), 'embedding'))) {
        setProblem(settings.getState().saveError)
        return
      }
      setKeyDraft('')
    }
    setSaved(true)
  }

  const runTest = async (): Promise<void> => {
    const dimensions = checkedDimensions()
    if (dimensions === null || testing) return
    setTesting(true)
    setTest(null)
    try {
      const input = { model: draft.model.trim(), baseURL: draft.baseURL.trim(), dimensions, ...(keyDraft.trim() && draft.baseURL.trim() ? { apiKey: keyDraft.trim() } : {}) }
      setTest(await client.request('search.testEmbedding', input))
    } catch (error) {
      setTest({ ok: false, code: 'request_failed', message: describeError(error) })
    } finally {
      setTesting(false)
    }
  }

  const noModel = !draft.model.trim()
  return (
    <form
      className="search-embedding"
      onSubmit={(event) => {
        event.preventDefault()
        void save()
      }}
    >
      <div className="field" data-setting="search.meaning.model">
        <label className="field-label" htmlFor={`${id}-model`}>
          {t('search.meaning.model')}
        </label>
        <input
          id={`${id}-model`}
          aria-describedby={`${id}-model-hint`}
          className="text-input mono"
          value={draft.model}
          placeholder={t('search.meaning.modelPlaceholder')}
          spellCheck={false}
          onChange={(event) => edit({ model: event.target.value })}
        />
        <div className="field-hint" id={`${id}-model-hint`}>
          {t('search.meaning.modelHint')}
        </div>
      </div>
      <div className="field" data-setting="search.meaning.endpoint">
        <label className="field-label" htmlFor={`${id}-url`}>
          {t('search.meaning.endpoint')}
        </label>
        <input
          id={`${id}-url`}
          aria-describedby={`${id}-url-hint`}
          className="text-input mono"
          value={draft.baseURL}
          placeholder={chatURL ? t('search.meaning.endpointSame', { url: chatURL }) : t('search.meaning.endpointSameNone')}
          spellCheck={false}
          onChange={(event) => edit({ baseURL: event.target.value })}
        />
        <div className="field-hint" id={`${id}-url-hint`}>
          {t('search.meaning.endpointHint')}
        </div>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-dimensions`}>
          {t('search.meaning.dimensions')}
        </label>
        <input
          id={`${id}-dimensions`}
          aria-describedby={`${id}-dimensions-hint`}
          aria-invalid={invalid || undefined}
          className="text-input mono search-dimensions"
          inputMode="numeric"
          value={draft.dimensions}
          spellCheck={false}
          onChange={(event) => edit({ dimensions: event.target.value })}
        />
        <div className="field-hint" id={`${id}-dimensions-hint`}>
          {t('search.meaning.dimensionsHint')}
        </div>
      </div>
      {ownEndpoint && hasKeyField ? <ApiKeyField draft={keyDraft} onDraft={setKeyDraft} onSubmit={() => void save()} needed={false} which="embedding" label={t('search.meaning.keyLabel')} /> : null}
      <p className="field-hint">{t('search.meaning.reembed')}</p>
      {invalid ? <Notice tone="error">{t('search.meaning.dimensionsInvalid')}</Notice> : null}
      {problem ? <Notice tone="error">{problem}</Notice> : null}
      {test ? <TestResult test={test} /> : null}
      <div className="card-actions">
        <button type="submit" className="primary-button" aria-disabled={saving || undefined}>
          {t('search.meaning.save')}
        </button>
        {/* aria-disabled, not disabled: the button just pressed keeps the keyboard focus. */}
        <button type="button" className="secondary-button" aria-disabled={testing || noModel || undefined} onClick={() => testing || noModel || void runTest()}>
          {t('search.meaning.test')}
        </button>
        {testing ? <Spinner label={t('search.meaning.testing')} /> : null}
        {noModel ? <span className="field-hint">{t('search.meaning.testNoModel')}</span> : null}
        {saved && !saving ? (
          <span className="field-hint" role="status">
            {t('search.meaning.saved')}
          </span>
        ) : null}
      </div>
    </form>
  )
}

function TestResult({ test }: { test: TestOutcome }): React.JSX.Element {
  const t = useT()
  return <Notice tone={test.ok ? 'success' : 'error'}>{embeddingTestText(test, t)}</Notice>
}
