import type { McpServerInfo } from '../../../../../shared/mcp'
import { useT } from '../../../app/context'
import type { McpStore } from '../../../stores/mcp'

/** A server's tools, each offered to the model or not, and run without asking or not. */
export function McpToolList({ server, store, busy }: { server: McpServerInfo; store: McpStore; busy: boolean }): React.JSX.Element {
  const t = useT()
  if (server.status !== 'ready') return <p className="muted mcp-tools-note">{t('mcp.toolsWhenReady')}</p>
  if (server.tools.length === 0) return <p className="muted mcp-tools-note">{t('mcp.noTools')}</p>
  return (
    <table className="mcp-tools">
      <caption className="visually-hidden">{t('mcp.tools')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('mcp.tools')}</th>
          <th scope="col">{t('mcp.toolOn')}</th>
          <th scope="col">{t('mcp.toolNoAsk')}</th>
        </tr>
      </thead>
      <tbody>
        {server.tools.map((tool) => (
          <tr key={tool.name}>
            <td>
              <span className="mcp-tool-name">{tool.name}</span>
              {tool.title || tool.description ? <span className="mcp-tool-description">{[tool.title, tool.description].filter(Boolean).join(' — ')}</span> : null}
            </td>
            <td>
              <input
                type="checkbox"
                aria-label={t('mcp.toolEnabled', { tool: tool.name })}
                checked={tool.enabled}
                disabled={busy}
                onChange={(event) => void store.getState().setTool(server.name, tool.name, { enabled: event.target.checked })}
              />
            </td>
            <td>
              <input
                type="checkbox"
                aria-label={t('mcp.toolAutoApprove', { tool: tool.name })}
                checked={tool.autoApprove}
                disabled={busy || !tool.enabled}
                onChange={(event) => void store.getState().setTool(server.name, tool.name, { autoApprove: event.target.checked })}
              />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
