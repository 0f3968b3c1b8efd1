import { useState } from 'react'
import { useStore } from 'zustand'
import type { SavedPrompt } from '../../../../shared/prompts'
import { useApp, useSettings, useT } from '../../app/context'
import { Dialog } from '../../components/Dialog'
import { Notice } from '../../components/Feedback'
import { Icon } from '../../components/Icon'
import { PromptEditor } from './PromptEditor'

/** Which page of the library is showing: the list, or the editor for a new or existing prompt. */
type Page = { kind: 'list' } | { kind: 'edit'; prompt: SavedPrompt | null }

/**
 * "Prompt library" (from the `/` menu's "Manage prompts…" or its shortcut): the saved prompts with
 * Edit and Delete, "New prompt", and the files that could not be read, named with why.
 */
export function PromptLibraryDialog(): React.JSX.Element | null {
  const t = useT()
  const { prompts: library } = useApp()
  const open = useStore(library, (s) => s.libraryOpen)
  const [page, setPage] = useState<Page>({ kind: 'list' })
  if (!open) return null
  const close = () => {
    setPage({ kind: 'list' })
    library.getState().closeLibrary()
  }
  if (page.kind === 'edit') return <PromptEditor key={page.prompt?.name ?? ''} prompt={page.prompt} onDone={() => setPage({ kind: 'list' })} onClose={close} />
  return (
    <Dialog
      title={t('prompts.library.title')}
      wide
      onClose={close}
      actions={
        <>
          <button type="button" className="secondary-button" onClick={close}>
            {t('prompts.library.close')}
          </button>
          <button type="button" className="primary-button" data-autofocus onClick={() => setPage({ kind: 'edit', prompt: null })}>
            <Icon name="plus" size={15} /> {t('prompts.library.new')}
          </button>
        </>
      }
    >
      <PromptList onEdit={(prompt) => setPage({ kind: 'edit', prompt })} />
    </Dialog>
  )
}

function PromptList({ onEdit }: { onEdit(prompt: SavedPrompt): void }): React.JSX.Element {
  const t = useT()
  const { prompts: library } = useApp()
  const prompts = useStore(library, (s) => s.prompts)
  const problems = useStore(library, (s) => s.problems)
  const loadError = useStore(library, (s) => s.loadError)
  const home = useSettings((s) => s.info?.home)
  const [confirming, setConfirming] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const remove = async (name: string): Promise<void> => {
    const failure = await library.getState().remove(name)
    setError(failure)
    setConfirming(null)
  }
  return (
    <div className="prompt-library">
      <p className="muted">{t('prompts.library.intro', { folder: home ? `${home.replace(/[\\/]+$/, '')}/prompts` : 'prompts/' })}</p>
      {loadError ? <Notice tone="error">{loadError}</Notice> : null}
      {error ? <Notice tone="error">{error}</Notice> : null}
      {prompts.length === 0 ? <p className="muted">{t('prompts.library.none')}</p> : null}
      <ul className="prompt-library-list">
        {prompts.map((prompt) => (
          <li key={prompt.name} className="prompt-library-row">
            <div className="prompt-library-text">
              <span className="slash-menu-name">/{prompt.name}</span>
              {prompt.description ? <span className="slash-menu-description">{prompt.description}</span> : null}
              {prompt.variables.length ? <span className="prompt-library-variables">{prompt.variables.map((variable) => `{{${variable.name}}}`).join(' ')}</span> : null}
            </div>
            {confirming === prompt.name ? (
              <div className="prompt-library-confirm" role="group" aria-label={t('prompts.library.delete', { name: prompt.name })}>
                <span>{t('prompts.library.confirmDelete', { name: prompt.name })}</span>
                <button type="button" className="secondary-button" autoFocus onClick={() => setConfirming(null)}>
                  {t('prompts.cancel')}
                </button>
                <button type="button" className="danger-button" onClick={() => void remove(prompt.name)}>
                  {t('prompts.library.delete', { name: prompt.name })}
                </button>
              </div>
            ) : (
              <div className="prompt-library-actions">
                <button type="button" className="icon-button" aria-label={t('prompts.library.edit', { name: prompt.name })} title={t('prompts.library.edit', { name: prompt.name })} onClick={() => onEdit(prompt)}>
                  <Icon name="edit" size={16} />
                </button>
                <button type="button" className="icon-button" aria-label={t('prompts.library.delete', { name: prompt.name })} title={t('prompts.library.delete', { name: prompt.name })} onClick={() => setConfirming(prompt.name)}>
                  <Icon name="trash" size={16} />
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
      {problems.length ? (
        <Notice tone="warn">
          {t('prompts.library.unreadable')}
          <ul className="prompt-library-problems">
            {problems.map((problem) => (
              <li key={problem.file}>{t('prompts.problem', { file: problem.file, why: t(`prompts.issue.${problem.issue}`), detail: problem.detail || '—' })}</li>
            ))}
          </ul>
        </Notice>
      ) : null}
    </div>
  )
}
