import { useId, useState } from 'react'
import { useApp, useT } from '../../app/context'
import { Field } from '../../components/Controls'
import { Dialog } from '../../components/Dialog'
import { Notice } from '../../components/Feedback'
import type { SkillWriteOutcome } from '../../stores/skills'
import { describeSkillWriteFailure } from './skill-write-words'

/** A new skill from four fields; main writes the SKILL.md and checks it against the Agent Skills spec. */
export function CreateSkillDialog({ onClose }: { onClose(): void }): React.JSX.Element {
  const t = useT()
  const { skills, ui } = useApp()
  const id = useId()
  const [name, setName] = useState('')
  const [category, setCategory] = useState('')
  const [description, setDescription] = useState('')
  const [body, setBody] = useState('')
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<Extract<SkillWriteOutcome, { ok: false }> | null>(null)

  const submit = async (): Promise<void> => {
    setBusy(true)
    const outcome = await skills.getState().create({ name: name.trim(), category: category.trim() || null, description, body })
    setBusy(false)
    if (!outcome.ok) {
      setFailure(outcome)
      return
    }
    ui.getState().toast({ tone: 'success', text: t('library.created', { name: outcome.name }) })
    onClose()
  }
  const worded = failure ? describeSkillWriteFailure(failure, t) : null
  const ready = name.trim() !== '' && description.trim() !== ''

  return (
    <Dialog
      title={t('library.createTitle')}
      onClose={onClose}
      wide
      actions={
        <>
          <button type="button" className="secondary-button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" form={`${id}-form`} className="primary-button" disabled={busy || !ready}>
            {busy ? t('library.creating') : t('library.create')}
          </button>
        </>
      }
    >
      <form
        id={`${id}-form`}
        className="skill-form"
        onSubmit={(event) => {
          event.preventDefault()
          if (ready) void submit()
        }}
      >
        <Field label={t('library.name')} hint={t('library.nameHint')} htmlFor={`${id}-name`}>
          <input
            id={`${id}-name`}
            className="text-input mono"
            value={name}
            data-autofocus
            spellCheck={false}
            autoComplete="off"
            aria-invalid={failure?.code === 'exists' || failure?.code === 'invalid' ? true : undefined}
            onChange={(event) => setName(event.target.value)}
          />
        </Field>
        <Field label={t('library.category')} hint={t('library.categoryHint')} htmlFor={`${id}-category`}>
          <input id={`${id}-category`} className="text-input mono" value={category} spellCheck={false} autoComplete="off" onChange={(event) => setCategory(event.target.value)} />
        </Field>
        <Field label={t('library.description')} hint={t('library.descriptionHint')} htmlFor={`${id}-description`}>
          <input id={`${id}-description`} className="text-input" value={description} autoComplete="off" onChange={(event) => setDescription(event.target.value)} />
        </Field>
        <Field label={t('library.body')} hint={t('library.bodyHint')} htmlFor={`${id}-body`}>
          <textarea id={`${id}-body`} className="mono" rows={8} value={body} spellCheck={false} onChange={(event) => setBody(event.target.value)} />
        </Field>
        {worded ? (
          <Notice tone="error">
            {worded.text}
            {worded.detail ? <div className="notice-detail">{worded.detail}</div> : null}
          </Notice>
        ) : null}
      </form>
    </Dialog>
  )
}
