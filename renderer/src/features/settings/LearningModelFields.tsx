import { useId } from 'react'
import { useSettings, useT } from '../../app/context'
import { ApiKeyField } from './ApiKeyField'

export interface LearningModelDraft {
  learningModel: string
  learningBaseURL: string
}

/**
 * A cheaper model (and endpoint) for reviews and curation, saved with the provider by the same
 * Save. Empty fields mean "the same as chat", which the placeholders say; an endpoint of its own
 * takes its own key, saved by the same Save as the chat key.
 */
export function LearningModelFields({
  draft,
  chatModel,
  chatURL,
  onChange,
  keyDraft,
  onKeyDraft,
  onSubmit
}: {
  draft: LearningModelDraft
  chatModel: string
  chatURL: string
  onChange(patch: Partial<LearningModelDraft>): void
  keyDraft: string
  onKeyDraft(value: string): void
  onSubmit(): void
}): React.JSX.Element {
  const t = useT()
  const modelId = useId()
  const urlId = useId()
  const savedURL = useSettings((s) => s.view?.config.learning.baseURL ?? '')
  const hasKeyField = useSettings((s) => Boolean(s.view?.learningKey))
  const ownEndpoint = Boolean(draft.learningBaseURL.trim() || savedURL)
  return (
    <div className="field-group" role="group" aria-labelledby={`${modelId}-group`}>
      <div className="field-group-head">
        <h3 className="field-group-title" id={`${modelId}-group`} data-setting="settings.learningModel.title">
          {t('settings.learningModel.title')}
        </h3>
        <p className="field-hint">{t('settings.learningModel.lead')}</p>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={modelId}>
          {t('settings.learning.model')}
        </label>
        <input
          id={modelId}
          className="text-input mono"
          value={draft.learningModel}
          placeholder={chatModel ? t('settings.learningModel.sameModel', { model: chatModel }) : t('settings.learningModel.sameAsChat')}
          spellCheck={false}
          onChange={(event) => onChange({ learningModel: event.target.value })}
        />
        <div className="field-hint">{t('settings.learning.modelHint')}</div>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={urlId}>
          {t('settings.learning.baseURL')}
        </label>
        <input
          id={urlId}
          className="text-input mono"
          value={draft.learningBaseURL}
          placeholder={chatURL ? t('settings.learningModel.sameURL', { url: chatURL }) : t('settings.learningModel.sameAsChat')}
          spellCheck={false}
          onChange={(event) => onChange({ learningBaseURL: event.target.value })}
        />
        <div className="field-hint">{t('settings.learning.baseURLHint')}</div>
      </div>
      {ownEndpoint && hasKeyField ? <ApiKeyField draft={keyDraft} onDraft={onKeyDraft} onSubmit={onSubmit} needed={false} which="learning" /> : null}
    </div>
  )
}
