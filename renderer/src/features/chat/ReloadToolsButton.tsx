import { useState } from 'react'
import { useApp, useChat, useSettings, useT } from '../../app/context'
import { Dialog } from '../../components/Dialog'
import { Icon } from '../../components/Icon'
import { describeError } from '../../ipc/error-words'

/**
 * "Reload tools": the open conversation gets the MCP tools as they are now from its next message
 * (a conversation keeps one snapshot otherwise). Shown once any MCP server is configured; it says
 * first that the conversation's prompt cache starts again.
 */
export function ReloadToolsButton(): React.JSX.Element | null {
  const t = useT()
  const { client, ui } = useApp()
  const sessionId = useChat((s) => s.sessionId)
  const configured = useSettings((s) => Object.keys(s.view?.config.mcpServers ?? {}).length > 0)
  const [asking, setAsking] = useState(false)
  if (!sessionId || !configured) return null

  const reload = async (): Promise<void> => {
    setAsking(false)
    try {
      await client.request('chat.reloadTools', { sessionId })
      ui.getState().toast({ tone: 'info', text: t('mcp.reloadedTools') })
    } catch (error) {
      ui.getState().toast({ tone: 'error', text: describeError(error) })
    }
  }

  return (
    <>
      <button type="button" className="icon-button" onClick={() => setAsking(true)} aria-label={t('mcp.reloadTools')} title={t('mcp.reloadTools')}>
        <Icon name="plug" />
      </button>
      {asking ? (
        <Dialog
          title={t('mcp.reloadTools')}
          onClose={() => setAsking(false)}
          actions={
            <>
              <button type="button" className="secondary-button" onClick={() => setAsking(false)}>
                {t('mcp.cancel')}
              </button>
              <button type="button" className="primary-button" data-autofocus onClick={() => void reload()}>
                {t('mcp.reloadTools')}
              </button>
            </>
          }
        >
          <p>{t('mcp.reloadToolsHint')}</p>
        </Dialog>
      ) : null}
    </>
  )
}
