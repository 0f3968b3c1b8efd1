import { useId, useState } from 'react'
import { MAX_PROMPT_BODY_CHARS, PROMPT_NAME, promptNameFrom, promptVariables, type PromptVariable, type SavedPrompt } from '../../../../shared/prompts'
import { useApp, useT } from '../../app/context'
import { Dialog } from '../../components/Dialog'
import { Notice } from '../../components/Feedback'

/**
 * A saved prompt's form: name (new prompts only keep it editable as typed; an existing one may be
 * renamed), description, the text, and one question and default per `{{variable}}` found in the text,
 * updated as it is typed.
 */
export function PromptEditor({ prompt, onDone, onClose }: { prompt: SavedPrompt | null; onDone(): void; onClose(): void }): React.JSX.Element {
  const t = useT()
  const { prompts: library } = useApp()
  const formId = useId()
  const [name, setName] = useState(prompt?.name ?? '')
  const [description, setDescription] = useState(prompt?.description ?? '')
  const [body, setBody] = useState(prompt?.body ?? '')
  // What the user wrote about each variable, kept by name while the text changes (a variable removed and typed back keeps it).
  const [declared, setDeclared] = useState<Record<string, PromptVariable>>(() => Object.fromEntries((prompt?.variables ?? []).map((variable) => [variable.name, variable])))
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const variables = promptVariables(body, Object.values(declared))
  const valid = PROMPT_NAME.test(name) && body.trim() !== ''

  const edit = (variable: string, field: 'description' | 'default', value: string) => setDeclared({ ...declared, [variable]: { ...declared[variable], name: variable, [field]: value } })
  const save = async (): Promise<void> => {
    if (!valid || busy) return
    setBusy(true)
    const failure = await library.getState().save({ name, description: description.trim(), body, variables, ...(prompt ? { previousName: prompt.name } : {}) })
    setBusy(false)
    if (failure) setError(failure)
    else onDone()
  }

  return (
    <Dialog
      title={prompt ? t('prompts.library.editTitle', { name: prompt.name }) : t('prompts.library.newTitle')}
      wide
      onClose={onClose}
      actions={
        <>
          <button type="button" className="secondary-button" onClick={onDone}>
            {t('prompts.library.back')}
          </button>
          <button type="submit" form={formId} className="primary-button" disabled={!valid || busy}>
            {t('prompts.save')}
          </button>
        </>
      }
    >
      <form
        id={formId}
        className="prompt-editor"
        onSubmit={(event) => {
          event.preventDefault()
          void save()
        }}
      >
        {error ? <Notice tone="error">{error}</Notice> : null}
        <label className="field">
          <span className="field-label">{t('prompts.field.name')}</span>
          <input
            className="text-input"
            data-autofocus
            value={name}
            maxLength={64}
            spellCheck={false}
            aria-invalid={name !== '' && !PROMPT_NAME.test(name)}
            onChange={(event) => setName(event.target.value.toLowerCase().replace(/\s+/g, '-'))}
            onBlur={() => setName(promptNameFrom(name))}
          />
          <span className="field-hint">{t('prompts.field.nameHint', { name: name || 'name' })}</span>
        </label>
        <label className="field">
          <span className="field-label">{t('prompts.field.description')}</span>
          <input className="text-input" value={description} maxLength={500} onChange={(event) => setDescription(event.target.value)} />
        </label>
        <label className="field">
          <span className="field-label">{t('prompts.field.body')}</span>
          <textarea className="prompt-editor-body" rows={7} value={body} maxLength={MAX_PROMPT_BODY_CHARS} onChange={(event) => setBody(event.target.value)} />
          <span className="field-hint">{t('prompts.field.bodyHint')}</span>
        </label>
        <fieldset className="prompt-editor-variables">
          <legend className="field-label">{t('prompts.field.variables')}</legend>
          {variables.length === 0 ? <p className="field-hint">{t('prompts.field.noVariables')}</p> : null}
          {variables.map((variable) => (
            <div key={variable.name} className="prompt-editor-variable">
              <code>{`{{${variable.name}}}`}</code>
              <input
                className="text-input"
                aria-label={t('prompts.field.variableDescription', { name: variable.name })}
                placeholder={t('prompts.field.variableDescription', { name: variable.name })}
                value={variable.description ?? ''}
                onChange={(event) => edit(variable.name, 'description', event.target.value)}
              />
              <input
                className="text-input"
                aria-label={t('prompts.field.variableDefault', { name: variable.name })}
                placeholder={t('prompts.field.variableDefault', { name: variable.name })}
                value={variable.default ?? ''}
                onChange={(event) => edit(variable.name, 'default', event.target.value)}
              />
            </div>
          ))}
        </fieldset>
      </form>
    </Dialog>
  )
}
