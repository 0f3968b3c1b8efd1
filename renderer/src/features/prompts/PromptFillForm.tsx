import { useId, useState } from 'react'
import type { SavedPrompt } from '../../../../shared/prompts'
import { useT } from '../../app/context'
import { Dialog } from '../../components/Dialog'

/**
 * The values of a saved prompt's variables, defaults prefilled: Tab moves between the fields, Enter
 * (or "Insert") puts the filled prompt in the composer, Esc cancels.
 */
export function PromptFillForm({ prompt, onCancel, onInsert }: { prompt: SavedPrompt; onCancel(): void; onInsert(values: Record<string, string>): void }): React.JSX.Element {
  const t = useT()
  const formId = useId()
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(prompt.variables.map((variable) => [variable.name, variable.default ?? ''])))
  return (
    <Dialog
      title={t('prompts.fill.title', { name: prompt.name })}
      onClose={onCancel}
      actions={
        <>
          <button type="button" className="secondary-button" onClick={onCancel}>
            {t('prompts.cancel')}
          </button>
          <button type="submit" form={formId} className="primary-button">
            {t('prompts.fill.insert')}
          </button>
        </>
      }
    >
      <form
        id={formId}
        className="prompt-fill-form"
        onSubmit={(event) => {
          event.preventDefault()
          onInsert(values)
        }}
      >
        {prompt.description ? <p className="muted">{prompt.description}</p> : null}
        {prompt.variables.map((variable, index) => (
          <label key={variable.name} className="field">
            <span className="field-label">{variable.name}</span>
            <input
              className="text-input"
              data-autofocus={index === 0 ? true : undefined}
              value={values[variable.name] ?? ''}
              onChange={(event) => setValues({ ...values, [variable.name]: event.target.value })}
            />
            {variable.description ? <span className="field-hint">{variable.description}</span> : null}
          </label>
        ))}
        <p className="field-hint">
          {t('prompts.fill.hint')}
        </p>
      </form>
    </Dialog>
  )
}
