import { useEffect, useId, useMemo } from 'react'
import { useStore } from 'zustand'
import { localeOf } from '../../../../../shared/i18n'
import type { SearchUpkeep } from '../../../../../shared/ipc/contract-search'
import { useApp, useSettings, useT, useUi } from '../../../app/context'
import { Notice, Spinner } from '../../../components/Feedback'
import { createSearchUpkeepStore, type SearchUpkeepStore } from '../../../stores/search-upkeep'
import { EmbeddingFields } from './EmbeddingFields'
import { meaningErrorText, meaningLine, wordIndexLine, type FormatCount } from './search-words'
import './search.css'

/**
 * Settings → Search: how far the word index for Chinese/Japanese is (older messages are indexed in
 * the background) and where search by meaning stands, with "Fill now" and "Pause" for its backfill,
 * and its settings to edit and test (EmbeddingFields). Live through `search.changed`.
 */
export function SearchSection(): React.JSX.Element {
  const t = useT()
  const { client } = useApp()
  const id = useId()
  const store = useMemo(() => createSearchUpkeepStore(client), [client])
  const status = useStore(store, (s) => s.status)
  const failure = useStore(store, (s) => s.failure)
  const locale = localeOf(useUi((s) => s.language))
  const count = useMemo<FormatCount>(() => {
    const format = new Intl.NumberFormat(locale)
    return (value) => format.format(value)
  }, [locale])

  useEffect(() => {
    const off = client.on('search.changed', (next) => store.getState().changed(next))
    void store.getState().load()
    return off
  }, [client, store])

  return (
    <section className="card search-card" aria-labelledby={`${id}-title`}>
      <header className="card-head">
        <div>
          <h2 id={`${id}-title`} data-setting="search.title">{t('search.title')}</h2>
          <p className="muted">{t('search.lead')}</p>
        </div>
      </header>
      {status ? (
        <>
          <WordIndex status={status} count={count} />
          <Meaning status={status} store={store} count={count} />
        </>
      ) : failure ? null : (
        <Spinner label={t('common.loading')} />
      )}
      {failure ? <Notice tone="error">{failure}</Notice> : null}
    </section>
  )
}

function WordIndex({ status, count }: { status: SearchUpkeep; count: FormatCount }): React.JSX.Element {
  const t = useT()
  const id = useId()
  const line = wordIndexLine(status.words, t, count)
  return (
    <section className="field-group" aria-labelledby={`${id}-title`}>
      <div className="field-group-head">
        <h3 id={`${id}-title`} className="field-group-title" data-setting="search.words.title">
          {t('search.words.title')}
        </h3>
        <p className="field-hint">{t('search.words.hint')}</p>
      </div>
      <div className="search-state">
        <span>{line.text}</span>
        {line.ratio !== null ? <progress aria-label={t('search.words.title')} max={1} value={line.ratio} /> : null}
      </div>
    </section>
  )
}

function Meaning({ status, store, count }: { status: SearchUpkeep; store: SearchUpkeepStore; count: FormatCount }): React.JSX.Element {
  const t = useT()
  const id = useId()
  const acting = useStore(store, (s) => s.acting)
  const meaning = status.meaning
  // The fields start from the saved settings once Settings has loaded them.
  const search = useSettings((s) => s.view?.config.search)
  const line = meaningLine(meaning, t, count)
  const error = meaningErrorText(meaning, t)
  const on = meaning.state !== 'off' && meaning.state !== 'unavailable'
  const fillBlocked = acting || (meaning.filling && !meaning.paused)
  const pauseBlocked = acting || meaning.paused
  return (
    <section className="field-group" aria-labelledby={`${id}-title`}>
      <div className="field-group-head">
        <h3 id={`${id}-title`} className="field-group-title" data-setting="search.meaning.title">
          {t('search.meaning.title')}
        </h3>
        <p className="field-hint">{t('search.meaning.hint')}</p>
      </div>
      <div className="search-state">
        <span>{line.text}</span>
        {line.ratio !== null ? <progress aria-label={t('search.meaning.title')} max={1} value={line.ratio} /> : null}
        {on && meaning.paused ? <span className="field-hint">{t('search.meaning.paused')}</span> : null}
        {on && meaning.waiting && !meaning.paused ? <span className="field-hint">{t('search.meaning.waiting')}</span> : null}
      </div>
      {meaning.state === 'off' ? <p className="field-hint">{t('search.meaning.offHow')}</p> : null}
      {search ? <EmbeddingFields search={search} /> : null}
      {on && error ? <Notice tone="warn">{error}</Notice> : null}
      {on ? (
        <div className="card-actions">
          {/* aria-disabled, not disabled: the button just pressed keeps the keyboard focus. */}
          <button type="button" className="secondary-button" aria-disabled={fillBlocked || undefined} onClick={() => fillBlocked || void store.getState().fillMeaning()}>
            {t('search.meaning.fill')}
          </button>
          <button type="button" className="ghost-button" aria-disabled={pauseBlocked || undefined} onClick={() => pauseBlocked || void store.getState().pauseMeaning()}>
            {t('search.meaning.pause')}
          </button>
          {/* A fixed label: the counter beside it changes several times a second and would be read out each time. */}
          {meaning.filling ? <Spinner label={t('search.meaning.fillingUncounted', { model: meaning.settings.model })} /> : null}
        </div>
      ) : null}
    </section>
  )
}
