import { useId, useState } from 'react'
import { useSettings, useT } from '../../../app/context'
import { Field, Segmented } from '../../../components/Controls'
import { Dialog } from '../../../components/Dialog'
import { Notice } from '../../../components/Feedback'
import { Icon } from '../../../components/Icon'
import type { McpStore } from '../../../stores/mcp'
import { useSaveAndClose } from './use-save-and-close'

interface Row {
  key: string
  value: string
  secret: boolean
}

const emptyRow = (): Row => ({ key: '', value: '', secret: true })

/** A new server: a program Cairn runs (command, arguments, environment) or a remote one (URL, headers). */
export function McpAddDialog({ store, onClose }: { store: McpStore; onClose(): void }): React.JSX.Element {
  const t = useT()
  const ids = { name: useId(), command: useId(), args: useId(), url: useId() }
  const [name, setName] = useState('')
  const [kind, setKind] = useState<'stdio' | 'http'>('stdio')
  const [command, setCommand] = useState('')
  const [args, setArgs] = useState('')
  const [url, setUrl] = useState('')
  const [env, setEnv] = useState<Row[]>([])
  const [headers, setHeaders] = useState<Row[]>([])
  const { error, setError, saving, save } = useSaveAndClose(onClose)

  const submit = async () => {
    const problem = !name.trim() ? t('mcp.form.needName') : kind === 'stdio' && !command.trim() ? t('mcp.form.needCommand') : kind === 'http' && !url.trim() ? t('mcp.form.needUrl') : null
    if (problem) return setError(problem)
    const rows = (kind === 'stdio' ? env : headers).filter((row) => row.key.trim())
    const plain = Object.fromEntries(rows.filter((row) => !row.secret).map((row) => [row.key.trim(), row.value]))
    const secret = Object.fromEntries(rows.filter((row) => row.secret).map((row) => [row.key.trim(), row.value]))
    const server =
      kind === 'stdio'
        ? { command: command.trim(), args: args.split('\n').map((line) => line.trim()).filter(Boolean), env: plain }
        : { type: 'http', url: url.trim(), headers: plain }
    await save(() => store.getState().save({ name: name.trim(), server, secrets: kind === 'stdio' ? { env: secret } : { headers: secret } }))
  }

  return (
    <Dialog
      title={t('mcp.form.title')}
      wide
      onClose={onClose}
      actions={
        <>
          <button type="button" className="secondary-button" onClick={onClose}>
            {t('mcp.cancel')}
          </button>
          <button type="button" className="primary-button" disabled={saving} onClick={() => void submit()}>
            {t('mcp.save')}
          </button>
        </>
      }
    >
      <form
        className="mcp-form"
        onSubmit={(event) => {
          event.preventDefault()
          void submit()
        }}
      >
        {error ? <Notice tone="error">{error}</Notice> : null}
        <Field label={t('mcp.form.name')} htmlFor={ids.name}>
          <input id={ids.name} className="text-input" data-autofocus value={name} onChange={(event) => setName(event.target.value)} />
        </Field>
        <div className="field">
          <span className="field-label">{t('mcp.form.kind')}</span>
          <Segmented<'stdio' | 'http'>
            label={t('mcp.form.kind')}
            value={kind}
            options={[
              { value: 'stdio', label: t('mcp.form.stdio') },
              { value: 'http', label: t('mcp.form.http') }
            ]}
            onChange={setKind}
          />
        </div>
        {kind === 'stdio' ? (
          <>
            <Field label={t('mcp.form.command')} hint={t('mcp.form.commandHint')} htmlFor={ids.command}>
              <input id={ids.command} className="text-input mono" value={command} onChange={(event) => setCommand(event.target.value)} />
            </Field>
            <Field label={t('mcp.form.args')} hint={t('mcp.form.argsHint')} htmlFor={ids.args}>
              <textarea id={ids.args} className="mono" rows={3} value={args} onChange={(event) => setArgs(event.target.value)} />
            </Field>
            <KeyValueRows label={t('mcp.form.env')} rows={env} onChange={setEnv} />
          </>
        ) : (
          <>
            <Field label={t('mcp.form.url')} htmlFor={ids.url}>
              <input id={ids.url} className="text-input mono" type="url" placeholder="https://" value={url} onChange={(event) => setUrl(event.target.value)} />
            </Field>
            <KeyValueRows label={t('mcp.form.headers')} rows={headers} onChange={setHeaders} />
          </>
        )}
        <button type="submit" hidden />
      </form>
    </Dialog>
  )
}

/** Name/value rows, each value secret (kept encrypted, never in config.json) unless the user unticks it. */
function KeyValueRows({ label, rows, onChange }: { label: string; rows: Row[]; onChange(rows: Row[]): void }): React.JSX.Element {
  const t = useT()
  const browser = useSettings((s) => s.info?.mode === 'browser')
  const edit = (index: number, patch: Partial<Row>) => onChange(rows.map((row, at) => (at === index ? { ...row, ...patch } : row)))
  return (
    <fieldset className="mcp-rows">
      <legend className="field-label">{label}</legend>
      {rows.map((row, index) => (
        <div className="mcp-row" key={index}>
          <input className="text-input mono" aria-label={`${label}: ${t('mcp.form.key')} ${index + 1}`} placeholder={t('mcp.form.key')} value={row.key} onChange={(event) => edit(index, { key: event.target.value })} />
          <input
            className="text-input mono"
            type={row.secret ? 'password' : 'text'}
            autoComplete="off"
            aria-label={`${label}: ${t('mcp.form.value')} ${index + 1}`}
            placeholder={t('mcp.form.value')}
            value={row.value}
            onChange={(event) => edit(index, { value: event.target.value })}
          />
          <label className="mcp-secret">
            <input type="checkbox" checked={row.secret} onChange={(event) => edit(index, { secret: event.target.checked })} /> {t('mcp.form.secret')}
          </label>
          <button type="button" className="icon-button small" aria-label={t('mcp.form.removeRow')} onClick={() => onChange(rows.filter((_, at) => at !== index))}>
            <Icon name="close" size={14} />
          </button>
        </div>
      ))}
      <div className="mcp-rows-foot">
        <button type="button" className="ghost-button small" onClick={() => onChange([...rows, emptyRow()])}>
          <Icon name="plus" size={14} /> {t('mcp.form.addRow')}
        </button>
        <span className="field-hint">{t(browser ? 'mcp.form.secretHintBrowser' : 'mcp.form.secretHint')}</span>
      </div>
    </fieldset>
  )
}
