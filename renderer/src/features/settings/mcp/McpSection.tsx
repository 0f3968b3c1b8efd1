import { useEffect, useMemo, useState } from 'react'
import { useStore } from 'zustand'
import { useApp, useT } from '../../../app/context'
import { Notice, Spinner } from '../../../components/Feedback'
import { Icon } from '../../../components/Icon'
import { createMcpStore } from '../../../stores/mcp'
import { McpAddDialog } from './McpAddDialog'
import { McpImportDialog } from './McpImportDialog'
import { McpPasteDialog } from './McpPasteDialog'
import { McpServerRow } from './McpServerRow'

type OpenDialog = 'add' | 'paste' | 'import' | null

/**
 * Settings → Tools (MCP): every configured server with its state, live (`mcp.changed`); opening it
 * starts the servers. Adding, pasting and importing servers write config.json through main.
 */
export function McpSection(): React.JSX.Element {
  const t = useT()
  const { client } = useApp()
  const store = useMemo(() => createMcpStore(client), [client])
  const list = useStore(store, (s) => s.list)
  const loadError = useStore(store, (s) => s.loadError)
  const actionError = useStore(store, (s) => s.actionError)
  const reloading = useStore(store, (s) => Boolean(s.pending['']))
  const [dialog, setDialog] = useState<OpenDialog>(null)

  useEffect(() => {
    const off = client.on('mcp.changed', ({ servers }) => store.getState().changed(servers))
    void store.getState().load()
    return off
  }, [client, store])

  return (
    <section className="card mcp-section" aria-labelledby="settings-mcp">
      <header className="card-head mcp-head">
        <div>
          <h2 id="settings-mcp" data-setting="mcp.title">{t('mcp.title')}</h2>
          <p className="muted">{t('mcp.lead')}</p>
        </div>
      </header>
      <div className="mcp-actions" role="toolbar" aria-label={t('mcp.title')}>
        <button type="button" className="primary-button small" data-setting="mcp.add" onClick={() => setDialog('add')}>
          <Icon name="plus" size={14} /> {t('mcp.add')}
        </button>
        <button type="button" className="secondary-button small" onClick={() => setDialog('paste')}>
          {t('mcp.paste')}
        </button>
        <button type="button" className="secondary-button small" onClick={() => setDialog('import')}>
          {t('mcp.import')}
        </button>
        <span className="spacer" />
        <button type="button" className="ghost-button small" disabled={reloading || !list} onClick={() => void store.getState().reload()}>
          <Icon name="regenerate" size={14} /> {t('mcp.reload')}
        </button>
      </div>
      {loadError ? <Notice tone="error">{loadError}</Notice> : null}
      {actionError ? <Notice tone="error">{actionError}</Notice> : null}
      {list === null ? (
        loadError ? null : <Spinner label={t('common.loading')} />
      ) : list.servers.length === 0 ? (
        <p className="muted mcp-empty">{t('mcp.empty')}</p>
      ) : (
        <ul className="mcp-servers">
          {list.servers.map((server) => (
            <McpServerRow key={server.name} server={server} store={store} />
          ))}
        </ul>
      )}
      {dialog === 'add' ? <McpAddDialog store={store} onClose={() => setDialog(null)} /> : null}
      {dialog === 'paste' ? <McpPasteDialog store={store} onClose={() => setDialog(null)} /> : null}
      {dialog === 'import' ? <McpImportDialog store={store} onClose={() => setDialog(null)} /> : null}
    </section>
  )
}
