import { useId, useState } from 'react'
import type { McpPromptInfo } from '../../../../../shared/mcp'
import { useT } from '../../../app/context'
import { Dialog } from '../../../components/Dialog'
import { Notice } from '../../../components/Feedback'
import { promptLabel, type McpPromptMenu } from './useMcpPrompts'

// The `/` menu listing these prompts beside the saved ones is features/prompts/SlashMenu.tsx.

/** The arguments a picked prompt takes, asked in a small form. */
export function McpPromptArguments({ menu }: { menu: McpPromptMenu }): React.JSX.Element | null {
  if (!menu.asking) return null
  return <PromptForm key={promptLabel(menu.asking)} prompt={menu.asking} menu={menu} />
}

function PromptForm({ prompt, menu }: { prompt: McpPromptInfo; menu: McpPromptMenu }): React.JSX.Element {
  const t = useT()
  const formId = useId()
  const [values, setValues] = useState<Record<string, string>>({})
  const missing = prompt.arguments.some((arg) => arg.required && !values[arg.name]?.trim())
  const submit = () => {
    if (missing) return
    const given = Object.fromEntries(Object.entries(values).filter(([, value]) => value.trim() !== ''))
    void menu.run(prompt, given)
  }
  return (
    <Dialog
      title={t('mcp.prompts.argsTitle', { name: promptLabel(prompt) })}
      onClose={menu.cancel}
      actions={
        <>
          <button type="button" className="secondary-button" onClick={menu.cancel}>
            {t('mcp.cancel')}
          </button>
          <button type="submit" form={formId} className="primary-button" disabled={missing}>
            {t('mcp.prompts.use')}
          </button>
        </>
      }
    >
      <form
        id={formId}
        className="mcp-form"
        onSubmit={(event) => {
          event.preventDefault()
          submit()
        }}
      >
        {prompt.description ? <p className="muted">{prompt.description}</p> : null}
        {menu.problem ? <Notice tone="error">{menu.problem}</Notice> : null}
        {prompt.arguments.map((arg, index) => (
          <label key={arg.name} className="field">
            <span className="field-label">
              {arg.name}
              {arg.required ? <span className="muted"> ({t('mcp.prompts.required')})</span> : null}
            </span>
            <input
              className="text-input"
              data-autofocus={index === 0 ? true : undefined}
              required={arg.required}
              value={values[arg.name] ?? ''}
              onChange={(event) => setValues({ ...values, [arg.name]: event.target.value })}
            />
            {arg.description ? <span className="field-hint">{arg.description}</span> : null}
          </label>
        ))}
      </form>
    </Dialog>
  )
}
