import { useId, useState } from 'react'
import { useApp, useT } from '../../app/context'
import { Notice } from '../../components/Feedback'
import type { SkillWriteOutcome } from '../../stores/skills'
import { describeSkillWriteFailure } from './skill-write-words'

/**
 * SKILL.md edited by hand. Save goes through the same checks as any skill write; a refusal keeps the
 * text in the editor, so nothing typed is lost. Ctrl/Cmd+S saves, Esc cancels.
 */
export function SkillEditor({ name, original, onDone }: { name: string; original: string; onDone(): void }): React.JSX.Element {
  const t = useT()
  const { skills, ui } = useApp()
  const id = useId()
  // The text the editor opened with, kept when the skill reloads underneath (a review writing it
  // meanwhile): main compares it with the file, so a newer version is never silently overwritten.
  const [opened] = useState(original)
  const [text, setText] = useState(original)
  const [saving, setSaving] = useState(false)
  const [failure, setFailure] = useState<Extract<SkillWriteOutcome, { ok: false }> | null>(null)

  const save = async (): Promise<void> => {
    if (saving) return
    setSaving(true)
    const outcome = await skills.getState().saveFile(name, text, opened)
    setSaving(false)
    if (!outcome.ok) {
      setFailure(outcome)
      return
    }
    ui.getState().toast({ tone: 'success', text: t('library.saved', { name }) })
    onDone()
  }
  const worded = failure ? describeSkillWriteFailure(failure, t) : null

  return (
    <form
      className="skill-editor"
      onSubmit={(event) => {
        event.preventDefault()
        void save()
      }}
    >
      <label htmlFor={id} className="field-label">
        {t('library.editorLabel', { name })}
      </label>
      <textarea
        id={id}
        className="skill-editor-text mono"
        value={text}
        spellCheck={false}
        autoFocus
        rows={24}
        aria-invalid={failure ? true : undefined}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === 's') {
            event.preventDefault()
            void save()
          } else if (event.key === 'Escape') {
            event.preventDefault()
            onDone()
          }
        }}
      />
      <p className="field-hint">{t('library.editorHint')}</p>
      {worded ? (
        <Notice tone="error">
          {worded.text}
          {worded.detail ? <div className="notice-detail">{worded.detail}</div> : null}
        </Notice>
      ) : null}
      <div className="skill-editor-actions">
        <button type="button" className="secondary-button" onClick={onDone}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="primary-button" disabled={saving || text === opened}>
          {saving ? t('library.saving') : t('library.save')}
        </button>
      </div>
    </form>
  )
}
