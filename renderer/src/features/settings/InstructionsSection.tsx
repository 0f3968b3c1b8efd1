import { useEffect, useId, useState } from 'react'
import { MAX_INSTRUCTIONS_CHARS } from '../../../../shared/instructions'
import { useApp, useSettings, useT } from '../../app/context'
import { Notice } from '../../components/Feedback'

/** The user's instructions for every conversation: part of each new conversation's frozen prompt. */
export function InstructionsSection(): React.JSX.Element | null {
  const t = useT()
  const { settings } = useApp()
  const saved = useSettings((s) => s.view?.config.agent.instructions)
  const [draft, setDraft] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const id = useId()
  // Changed elsewhere (another window, config.json) while nothing is being edited here: show it.
  useEffect(() => setDraft(null), [saved])
  if (saved === undefined) return null
  const text = draft ?? saved
  const over = text.length - MAX_INSTRUCTIONS_CHARS
  const dirty = draft !== null && draft.trim() !== saved.trim()

  const save = async (): Promise<void> => {
    setSaving(true)
    const ok = await settings.getState().update({ agent: { instructions: text.trim() } })
    setSaving(false)
    setProblem(ok ? null : settings.getState().saveError)
    if (ok) setDraft(null)
  }

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <header className="card-head">
        <div>
          <h2 id={`${id}-title`} data-setting="settings.instructions.title">{t('settings.instructions.title')}</h2>
          <p className="muted">{t('settings.instructions.lead')}</p>
        </div>
      </header>
      <div className="field">
        <label className="field-label" htmlFor={id}>
          {t('settings.instructions.label')}
        </label>
        <textarea
          id={id}
          className="text-input instructions-input"
          rows={5}
          value={text}
          placeholder={t('settings.instructions.placeholder')}
          aria-describedby={`${id}-hint`}
          onChange={(event) => setDraft(event.target.value)}
        />
        <div className={over > 0 ? 'field-hint instructions-count over' : 'field-hint instructions-count'} aria-live="polite">
          {over > 0 ? t('instructions.over', { count: over }) : t('instructions.length', { count: text.length, max: MAX_INSTRUCTIONS_CHARS })}
        </div>
        <div className="field-hint" id={`${id}-hint`}>
          {t('settings.instructions.hint')}
        </div>
      </div>
      <div className="card-actions">
        <span className="spacer" />
        {dirty ? (
          <button type="button" className="ghost-button" onClick={() => setDraft(null)}>
            {t('common.discard')}
          </button>
        ) : null}
        <button type="button" className="primary-button" disabled={!dirty || saving || over > 0} onClick={() => void save()}>
          {saving ? t('common.saving') : t('settings.instructions.save')}
        </button>
      </div>
      {problem ? <Notice tone="error">{problem}</Notice> : null}
    </section>
  )
}
