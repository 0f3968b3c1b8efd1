import { useEffect, useId, useRef, useState } from 'react'
import { useStore } from 'zustand'
import type { ModelList } from '../../../../shared/ipc/domain'
import { useApp, useChat, useSessions, useSettings, useT } from '../../app/context'
import { Dialog } from '../../components/Dialog'
import { Icon } from '../../components/Icon'
import { describeError } from '../../ipc/error-words'
import './model-switcher.css'

/** The model the default resolves to: what main reported with the list, else the saved setting. */
function useDefaultModel(): string {
  const { models } = useApp()
  const listed = useStore(models, (s) => s.list?.defaultModel)
  const saved = useSettings((s) => s.view?.config.provider.model ?? '')
  return listed ?? saved
}

/**
 * Which model answers in the open conversation (or the one about to start), in the chat header.
 * Activating it opens a picker: the provider's list (cached by main), a box to filter it or type any
 * name, and the default. An open conversation switches from its next message on.
 */
export function ModelSwitcher(): React.JSX.Element {
  const t = useT()
  const { models } = useApp()
  const sessionId = useChat((s) => s.sessionId)
  const stored = useSessions((s) => (sessionId ? (s.list.find((item) => item.id === sessionId)?.model ?? null) : null))
  const next = useStore(models, (s) => s.nextModel)
  const fallback = useDefaultModel()
  const [open, setOpen] = useState(false)
  const chosen = sessionId ? stored : next
  const shown = chosen || fallback
  const label = shown || t('models.defaultShort')

  const openPicker = (): void => {
    setOpen(true)
    void models.getState().load()
  }

  return (
    <>
      <button
        type="button"
        className={shown ? 'model-button' : 'model-button unset'}
        onClick={openPicker}
        aria-haspopup="dialog"
        aria-label={t(sessionId ? 'models.button' : 'models.buttonNew', { model: label })}
        title={label}
        data-testid="model-button"
      >
        <Icon name="sparkle" size={14} />
        <span className="model-name">{label}</span>
        <Icon name="chevronDown" size={12} />
      </button>
      {open ? <ModelPicker sessionId={sessionId} current={shown} chosen={chosen} fallback={fallback} onClose={() => setOpen(false)} /> : null}
    </>
  )
}

function ModelPicker({ sessionId, current, chosen, fallback, onClose }: { sessionId: string | null; current: string; chosen: string | null; fallback: string; onClose(): void }): React.JSX.Element {
  const t = useT()
  const { models, ui } = useApp()
  const list = useStore(models, (s) => s.list)
  const loading = useStore(models, (s) => s.loading)
  const loadError = useStore(models, (s) => s.loadError)
  const [filter, setFilter] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const inputId = useId()
  const listRef = useRef<HTMLUListElement>(null)
  useEffect(() => setProblem(loadError), [loadError])

  const typed = filter.trim()
  const shown = (list?.models ?? []).filter((model) => model.toLowerCase().includes(typed.toLowerCase()))

  const choose = async (model: string | null): Promise<void> => {
    if (!sessionId) {
      models.getState().setNextModel(model)
      onClose()
      return
    }
    try {
      await models.getState().setConversationModel(sessionId, model)
      onClose()
      ui.getState().toast({ tone: 'info', text: t('models.changed', { model: model || fallback || t('models.defaultShort') }) })
    } catch (error) {
      setProblem(describeError(error))
    }
  }

  /** Arrow keys move between the box and the listed models; Tab works as well. */
  const moveFocus = (from: HTMLElement, step: 1 | -1): void => {
    const buttons = [...(listRef.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])]
    const index = buttons.indexOf(from as HTMLButtonElement)
    const target = index < 0 ? (step === 1 ? buttons[0] : undefined) : buttons[index + step]
    if (target) target.focus()
    else if (step === -1) document.getElementById(inputId)?.focus()
  }

  return (
    <Dialog
      title={t(sessionId ? 'models.titleOpen' : 'models.titleNew')}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="ghost-button" disabled={loading} onClick={() => void models.getState().load({ refresh: true })}>
            <Icon name="regenerate" size={14} />
            {loading ? t('models.refreshing') : t('models.refresh')}
          </button>
          <span className="spacer" />
          <button type="button" className="secondary-button" onClick={onClose}>
            {t('common.cancel')}
          </button>
        </>
      }
    >
      <p className="muted">{t(sessionId ? 'models.leadOpen' : 'models.leadNew')}</p>
      {!fallback ? (
        <p className="model-unset">
          {t('models.unsetLead')}{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => {
              onClose()
              ui.getState().openSettings('provider')
            }}
          >
            {t('models.openSettings')}
          </button>
        </p>
      ) : null}
      <input
        id={inputId}
        className="text-input mono"
        value={filter}
        data-autofocus
        spellCheck={false}
        aria-label={t('models.filter')}
        placeholder={t('models.filter')}
        onChange={(event) => setFilter(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault()
            moveFocus(event.currentTarget, 1)
          }
          if (event.key === 'Enter' && typed) {
            event.preventDefault()
            void choose(typed)
          }
        }}
      />
      <ListStatus list={list} typed={typed} matches={shown.length} />
      {problem ? (
        <p className="model-problem" role="alert">
          {problem}
        </p>
      ) : null}
      <ul className="model-list" ref={listRef} aria-label={t('models.listLabel')} onKeyDown={(event) => {
        if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return
        event.preventDefault()
        moveFocus(event.target as HTMLElement, event.key === 'ArrowDown' ? 1 : -1)
      }}>
        {typed && !shown.includes(typed) ? (
          <li>
            <button type="button" className="model-option" onClick={() => void choose(typed)}>
              {t('models.useTyped', { model: typed })}
            </button>
          </li>
        ) : null}
        {shown.map((model) => (
          <li key={model}>
            <button type="button" className="model-option mono" aria-current={model === current ? 'true' : undefined} onClick={() => void choose(model)}>
              <span className="model-name">{model}</span>
              {model === current ? <span className="model-current">{t('models.current')}</span> : null}
            </button>
          </li>
        ))}
        {chosen ? (
          <li>
            <button type="button" className="model-option" onClick={() => void choose(null)}>
              {fallback ? t('models.useDefault', { model: fallback }) : t('models.useDefaultNone')}
            </button>
          </li>
        ) : null}
      </ul>
    </Dialog>
  )
}

/** Where the list came from, or why there is none: the user can always type a name. */
function ListStatus({ list, typed, matches }: { list: ModelList | null; typed: string; matches: number }): React.JSX.Element | null {
  const t = useT()
  if (!list) return null
  const url = list.baseURL
  let text: string
  if (list.error) text = list.models.length ? t('models.failedCached', { url }) : t('models.failed', { url })
  else if (!list.models.length) text = t('models.none')
  else if (typed && matches === 0) text = t('models.noMatch')
  else text = t('models.count', { count: list.models.length, url })
  return (
    <p className={list.error ? 'field-hint model-status warn' : 'field-hint model-status'} role="status">
      {text}
    </p>
  )
}
