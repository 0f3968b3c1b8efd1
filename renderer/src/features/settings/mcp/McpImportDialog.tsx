import { useEffect, useState } from 'react'
import type { McpImportPreview, McpImportSource } from '../../../../../shared/ipc/contract-mcp'
import { useApp, useT } from '../../../app/context'
import { Segmented } from '../../../components/Controls'
import { Dialog } from '../../../components/Dialog'
import { Notice, Spinner } from '../../../components/Feedback'
import { describeError } from '../../../ipc/error-words'
import type { McpStore } from '../../../stores/mcp'
import { useSaveAndClose } from './use-save-and-close'

/** What Claude Desktop or Claude Code has, with a checkbox each; a name Cairn has already is renamed or left out. */
export function McpImportDialog({ store, onClose }: { store: McpStore; onClose(): void }): React.JSX.Element {
  const t = useT()
  const { client } = useApp()
  const [from, setFrom] = useState<McpImportSource>('claude-desktop')
  const [preview, setPreview] = useState<McpImportPreview | null>(null)
  const [picked, setPicked] = useState<Record<string, boolean>>({})
  const [renames, setRenames] = useState<Record<string, string>>({})
  const { error, setError, saving, save } = useSaveAndClose(onClose)

  useEffect(() => {
    let live = true
    setPreview(null)
    setError(null)
    client.request('mcp.importPreview', { from }).then(
      (result) => {
        if (!live) return
        setPreview(result)
        setPicked(Object.fromEntries(result.servers.map((server) => [server.name, server.status === 'new'])))
        setRenames({})
      },
      (failure: unknown) => live && setError(describeError(failure))
    )
    return () => {
      live = false
    }
  }, [client, from])

  const chosen = (preview?.servers ?? []).filter((server) => picked[server.name] && (server.status === 'new' || (server.status === 'conflict' && renames[server.name]?.trim())))
  const submit = async () => {
    const named = Object.fromEntries(chosen.filter((server) => server.status === 'conflict').map((server) => [server.name, renames[server.name].trim()]))
    await save(() => store.getState().importServers(from, chosen.map((server) => server.name), named))
  }

  return (
    <Dialog
      title={t('mcp.import.title')}
      wide
      onClose={onClose}
      actions={
        <>
          <button type="button" className="secondary-button" onClick={onClose}>
            {t('mcp.cancel')}
          </button>
          <button type="button" className="primary-button" disabled={saving || chosen.length === 0} onClick={() => void submit()}>
            {t('mcp.import.action', { count: chosen.length })}
          </button>
        </>
      }
    >
      <div className="mcp-form">
        <div className="field">
          <span className="field-label">{t('mcp.import.from')}</span>
          <Segmented<McpImportSource>
            label={t('mcp.import.from')}
            value={from}
            options={[
              { value: 'claude-desktop', label: t('mcp.import.claudeDesktop') },
              { value: 'claude-code', label: t('mcp.import.claudeCode') }
            ]}
            onChange={setFrom}
          />
        </div>
        {error ? <Notice tone="error">{error}</Notice> : null}
        {preview === null ? (
          error ? null : <Spinner label={t('mcp.import.looking')} />
        ) : (
          <>
            <ul className="mcp-import-files">
              {preview.files.map((file) => (
                <li key={file.path} className="muted">
                  {t(file.found ? 'mcp.import.fileFound' : 'mcp.import.fileMissing', { path: file.path })}
                </li>
              ))}
            </ul>
            {preview.problems.map((problem) => (
              <Notice key={problem.file} tone="warn">
                {t('mcp.import.problem', { file: problem.file, error: problem.error })}
              </Notice>
            ))}
            {preview.servers.length === 0 ? <p className="muted">{t('mcp.import.none')}</p> : null}
            <ul className="mcp-import-list">
              {preview.servers.map((server) => (
                <li key={`${server.source}:${server.name}`} className="mcp-import-item">
                  <label className="mcp-import-pick">
                    <input
                      type="checkbox"
                      aria-label={t('mcp.import.pick', { name: server.name })}
                      disabled={server.status === 'identical' || server.status === 'invalid'}
                      checked={Boolean(picked[server.name])}
                      onChange={(event) => setPicked({ ...picked, [server.name]: event.target.checked })}
                    />
                    <span className="mcp-server-name">{server.name}</span>
                    {server.status === 'new' ? <span className="badge source-review">{t('mcp.import.new')}</span> : null}
                    {server.status === 'identical' ? <span className="badge muted">{t('mcp.import.identical')}</span> : null}
                  </label>
                  <span className="mcp-server-target">{server.source}</span>
                  {server.status === 'invalid' ? <p className="field-error">{t('mcp.import.invalid', { error: server.error ?? '' })}</p> : null}
                  {server.status === 'conflict' ? (
                    <div className="mcp-import-rename">
                      <p className="field-hint">{t('mcp.import.conflict', { name: server.name })}</p>
                      <input
                        className="text-input"
                        aria-label={`${t('mcp.import.rename')} (${server.name})`}
                        placeholder={t('mcp.import.rename')}
                        value={renames[server.name] ?? ''}
                        onChange={(event) => {
                          setRenames({ ...renames, [server.name]: event.target.value })
                          setPicked({ ...picked, [server.name]: Boolean(event.target.value.trim()) })
                        }}
                      />
                    </div>
                  ) : null}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </Dialog>
  )
}
