import { useId, useState } from 'react'
import { useStore } from 'zustand'
import { parsePastedServers } from '../../../../../shared/mcp-json'
import { useSettings, useT } from '../../../app/context'
import { Field } from '../../../components/Controls'
import { Dialog } from '../../../components/Dialog'
import { Notice } from '../../../components/Feedback'
import type { McpStore } from '../../../stores/mcp'
import { useSaveAndClose } from './use-save-and-close'

/** One or many servers pasted in Claude Desktop's or `.mcp.json`'s format; their env and header values go to the secret store. */
export function McpPasteDialog({ store, onClose }: { store: McpStore; onClose(): void }): React.JSX.Element {
  const t = useT()
  const ids = { text: useId(), name: useId() }
  const existing = useStore(store, (s) => s.list?.config ?? {})
  const browser = useSettings((s) => s.info?.mode === 'browser')
  const [text, setText] = useState('')
  const [name, setName] = useState('')
  const { error, saving, save } = useSaveAndClose(onClose)
  const parsed = text.trim() ? parsePastedServers(text, name.trim() || undefined) : null
  const names = parsed?.ok ? Object.keys(parsed.servers) : []
  const taken = names.filter((server) => Object.hasOwn(existing, server))

  const submit = async () => {
    if (!parsed?.ok || taken.length > 0) return
    await save(async () => {
      for (const [server, raw] of Object.entries(parsed.servers)) {
        const config = raw as Record<string, unknown>
        await store.getState().save({ name: server, server: config, secrets: { env: plainValues(config.env), headers: plainValues(config.headers) } })
      }
    })
  }

  return (
    <Dialog
      title={t('mcp.paste.title')}
      wide
      onClose={onClose}
      actions={
        <>
          <button type="button" className="secondary-button" onClick={onClose}>
            {t('mcp.cancel')}
          </button>
          <button type="button" className="primary-button" disabled={saving || !parsed?.ok || taken.length > 0} onClick={() => void submit()}>
            {t('mcp.save')}
          </button>
        </>
      }
    >
      <div className="mcp-form">
        {error ? <Notice tone="error">{error}</Notice> : null}
        <Field label={t('mcp.paste.label')} hint={t('mcp.paste.hint')} htmlFor={ids.text}>
          <textarea id={ids.text} className="mono" rows={10} spellCheck={false} data-autofocus value={text} onChange={(event) => setText(event.target.value)} />
        </Field>
        <Field label={t('mcp.paste.name')} htmlFor={ids.name}>
          <input id={ids.name} className="text-input" value={name} onChange={(event) => setName(event.target.value)} />
        </Field>
        {parsed && !parsed.ok ? <p className="field-error" role="alert">{t('mcp.paste.invalid', { error: parsed.error })}</p> : null}
        {names.length > 0 ? <p className="muted">{t('mcp.paste.found', { names: names.join(', ') })}</p> : null}
        {taken.map((server) => (
          <p key={server} className="field-error" role="alert">
            {t('mcp.paste.exists', { name: server })}
          </p>
        ))}
        {names.length > 0 ? <p className="field-hint">{t(browser ? 'mcp.paste.secretNoteBrowser' : 'mcp.paste.secretNote')}</p> : null}
      </div>
    </Dialog>
  )
}

/** Env or header values that are not `${secret:…}` already: they are kept in the secret store. */
function plainValues(values: unknown): Record<string, string> | undefined {
  if (typeof values !== 'object' || values === null || Array.isArray(values)) return undefined
  const plain = Object.entries(values).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && !/^\$\{secret:[^}]+\}$/.test(entry[1]))
  return plain.length > 0 ? Object.fromEntries(plain) : undefined
}
