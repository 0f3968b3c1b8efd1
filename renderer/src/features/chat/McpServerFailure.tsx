import { useApp, useT } from '../../app/context'
import { parseFields } from './tool-view'
import './mcp-server-failure.css'

/** Under a tool call that failed because its MCP server did (not running, not answering): the way to that server's settings. */
export function McpServerFailure({ result }: { result: string | null }): React.JSX.Element | null {
  const t = useT()
  const { ui } = useApp()
  const server = parseFields(result).server_failed
  if (typeof server !== 'string') return null
  return (
    <div className="tool-call-fix">
      <span>{t('turnFailure.mcpServer', { server })}</span>
      <button type="button" className="ghost-button small" onClick={() => ui.getState().openSettings('tools')}>
        {t('setup.openSettings')}
      </button>
    </div>
  )
}
