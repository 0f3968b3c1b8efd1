import { useId, useState } from 'react'
import { useApp, useSettings, useT } from '../../app/context'
import { Notice } from '../../components/Feedback'
import { keyStorageLabel } from './presets'
import { RememberSecretsChoice } from './RememberSecretsChoice'

/**
 * The key is write-only from here: the field starts empty, is cleared once the section's Save has
 * stored it (Enter saves too), and the UI only ever shows the last four characters main reports.
 */
export function ApiKeyField({
  draft,
  onDraft,
  onSubmit,
  needed,
  which = 'chat',
  label
}: {
  draft: string
  onDraft(value: string): void
  onSubmit(): void
  needed: boolean
  which?: 'chat' | 'learning' | 'embedding' | 'memoryProvider'
  /** In place of the chat or learning key's label (Settings → Search names the embedding key). */
  label?: string
}): React.JSX.Element {
  const t = useT()
  const id = useId()
  const { settings } = useApp()
  const view = useSettings((s) => s.view)
  const browserMode = useSettings((s) => s.info?.mode === 'browser')
  const rememberChoice = useSettings((s) => Boolean(s.view?.rememberSecrets))
  const [busy, setBusy] = useState(false)
  const key = which === 'learning' ? view?.learningKey : which === 'embedding' ? view?.embeddingKey : which === 'memoryProvider' ? view?.memoryProviderKey : view
  if (!key) return <></>
  const storage = key.keyStorage

  const remove = async (): Promise<void> => {
    setBusy(true)
    await settings.getState().setApiKey(null, which)
    setBusy(false)
  }

  return (
    <div className="field" data-setting={label ? undefined : which === 'learning' ? 'settings.key.learningLabel' : 'settings.key.label'}>
      <label className="field-label" htmlFor={id}>
        {label ?? (which === 'learning' ? t('settings.key.learningLabel') : t('settings.key.label'))}
      </label>
      <div className="input-row">
        <input
          id={id}
          aria-describedby={`${id}-status`}
          type="password"
          className="text-input"
          autoComplete="off"
          spellCheck={false}
          value={draft}
          placeholder={key.hasApiKey ? t('settings.key.replace') : needed ? t('settings.key.placeholder') : t('settings.key.optional')}
          onChange={(event) => onDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && draft.trim()) {
              event.preventDefault()
              onSubmit()
            }
          }}
        />
      </div>
      <div className="field-hint key-status" id={`${id}-status`} data-testid="key-status">
        {draft.trim() ? (
          <span>{t('settings.key.withSave')}</span>
        ) : key.hasApiKey ? (
          <>
            <span className="key-hint">•••• {key.keyHint}</span>
            <span>· {t(keyStorageLabel[storage])}</span>
            {storage !== 'env' ? (
              <button type="button" className="link-button" disabled={busy} onClick={() => void remove()}>
                {t('settings.key.remove')}
              </button>
            ) : null}
          </>
        ) : (
          <span>{t('settings.key.none')}</span>
        )}
      </div>
      {key.hasApiKey && storage === 'basic_text' ? <Notice tone="warn">{t('settings.key.warnBasicText')}</Notice> : null}
      {rememberChoice ? (
        <RememberSecretsChoice />
      ) : storage === 'memory' || (browserMode && !key.hasApiKey) ? (
        <Notice tone="warn">{t('settings.key.warnMemory', { variable: KEY_VARIABLES[which] })}</Notice>
      ) : null}
    </div>
  )
}

/** The variable that keeps each key across restarts in browser mode (and without a keyring). */
const KEY_VARIABLES = { chat: 'CAIRN_API_KEY', learning: 'CAIRN_LEARNING_API_KEY', embedding: 'CAIRN_EMBEDDING_API_KEY', memoryProvider: 'CAIRN_MEMORY_PROVIDER_API_KEY' } as const
