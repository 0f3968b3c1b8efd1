import { useEffect, useId, useState } from 'react'
import { localeOf } from '../../../../../shared/i18n'
import { describeProviderFailure } from '../../../../../shared/i18n/describe-recall'
import type { MemoryProviderName, MemoryProviderStatus } from '../../../../../shared/recall'
import { useApp, useSettings, useT, useUi } from '../../../app/context'
import { Segmented } from '../../../components/Controls'
import { Notice } from '../../../components/Feedback'
import { describeError } from '../../../ipc/error-words'
import { relativeTime, useNow } from '../../../lib/time'
import { ApiKeyField } from '../ApiKeyField'
import './memory-provider.css'

const PROVIDERS: readonly MemoryProviderName[] = ['builtin', 'mem0', 'honcho']

/**
 * Settings → Memory provider: which one is recalled from and sent each finished turn (one at a time),
 * its key and address, whether it works, and what was last sent to it. Live through `memoryProvider.changed`.
 */
export function MemoryProviderSection(): React.JSX.Element | null {
  const t = useT()
  const id = useId()
  const { client, settings } = useApp()
  const memory = useSettings((s) => s.view?.config.memory)
  const [status, setStatus] = useState<MemoryProviderStatus | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [keyDraft, setKeyDraft] = useState('')
  const [baseURL, setBaseURL] = useState(memory?.honcho.baseURL ?? '')

  useEffect(() => {
    const off = client.on('memoryProvider.changed', setStatus)
    client.request('memoryProvider.status').then(setStatus, (error: unknown) => setProblem(describeError(error)))
    return off
  }, [client])

  if (!memory) return null
  const provider = memory.provider
  const refresh = (): void => void client.request('memoryProvider.status').then(setStatus, (error: unknown) => setProblem(describeError(error)))
  const save = async (patch: Parameters<ReturnType<typeof settings.getState>['update']>[0]): Promise<void> => {
    setProblem((await settings.getState().update(patch)) ? null : settings.getState().saveError)
    refresh()
  }
  const saveKey = async (): Promise<void> => {
    if (!keyDraft.trim()) return
    if (await settings.getState().setApiKey(keyDraft.trim(), 'memoryProvider')) setKeyDraft('')
    else setProblem(settings.getState().saveError)
    refresh()
  }

  return (
    <section className="card memory-provider-card" aria-labelledby={`${id}-title`}>
      <header className="card-head">
        <div>
          <h2 id={`${id}-title`} data-setting="recall.settings.title">{t('recall.settings.title')}</h2>
          <p className="muted">{t('recall.settings.lead')}</p>
        </div>
      </header>
      <Segmented
        label={t('recall.settings.provider')}
        value={provider}
        options={PROVIDERS.map((name) => ({ value: name, label: t(`recall.provider.${name}`) }))}
        onChange={(next) => void save({ memory: { provider: next } })}
      />
      {provider === 'mem0' ? (
        <div className="field">
          <span className="field-label">{t('recall.settings.mode')}</span>
          <Segmented
            label={t('recall.settings.mode')}
            value={memory.mem0.mode}
            options={[
              { value: 'oss', label: t('recall.settings.mode.oss') },
              { value: 'platform', label: t('recall.settings.mode.platform') }
            ]}
            onChange={(mode) => void save({ memory: { mem0: { mode } } })}
          />
        </div>
      ) : null}
      {provider === 'honcho' ? (
        <div className="field">
          <label className="field-label" htmlFor={`${id}-url`}>
            {t('recall.settings.baseURL')}
          </label>
          <input
            id={`${id}-url`}
            className="text-input mono"
            value={baseURL}
            placeholder="https://api.honcho.dev"
            spellCheck={false}
            onChange={(event) => setBaseURL(event.target.value)}
            onBlur={() => baseURL.trim() !== memory.honcho.baseURL && void save({ memory: { honcho: { baseURL: baseURL.trim() } } })}
          />
        </div>
      ) : null}
      {provider === 'honcho' || (provider === 'mem0' && memory.mem0.mode === 'platform') ? (
        <ApiKeyField draft={keyDraft} onDraft={setKeyDraft} onSubmit={() => void saveKey()} needed which="memoryProvider" label={t('recall.settings.key')} />
      ) : null}
      {/* Both memory switches off: conversations reach no provider (the core builds none for them). */}
      {!memory.enabled && !memory.userProfileEnabled ? <p className="field-hint">{t('recall.settings.memoryOff')}</p> : <ProviderStatus provider={provider} status={status} />}
      {problem ? <Notice tone="error">{problem}</Notice> : null}
    </section>
  )
}

/** Whether the provider works, what waits to be sent, and the last things sent ("what is sent is shown"). */
function ProviderStatus({ provider, status }: { provider: MemoryProviderName; status: MemoryProviderStatus | null }): React.JSX.Element {
  const t = useT()
  const now = useNow()
  const locale = localeOf(useUi((s) => s.language))
  const name = t(`recall.provider.${provider}`)
  if (provider === 'builtin') return <p className="field-hint">{t('recall.settings.builtinSendsNothing')}</p>
  return (
    <div className="memory-provider-status">
      {status?.lastError ? (
        <Notice tone="error">{describeProviderFailure(provider, status.lastError, t)}</Notice>
      ) : (
        <p className="field-hint">{t('recall.settings.state.ready', { provider: name })}</p>
      )}
      {status?.pendingSyncs ? <p className="field-hint">{t('recall.settings.pending', { count: status.pendingSyncs })}</p> : null}
      <h3 className="field-group-title">{t('recall.settings.sent')}</h3>
      {status?.sent.length ? (
        <ul className="memory-provider-sent">
          {status.sent.map((item) => (
            <li key={`${item.at}:${item.kind}:${item.text.slice(0, 20)}`}>
              <span className="sent-meta">
                {t(`recall.settings.sent.${item.kind}`)} · {relativeTime(item.at, now, locale)}
              </span>
              <span className="sent-text">{item.text}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="field-hint">{t('recall.settings.sentNothing')}</p>
      )}
    </div>
  )
}
