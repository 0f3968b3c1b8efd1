import { useEffect, useState } from 'react'
import { useApp, useT } from '../../../app/context'
import { Dialog } from '../../../components/Dialog'
import { Notice, Spinner } from '../../../components/Feedback'
import { describeError } from '../../../ipc/error-words'

/** The server's log (its stderr and Cairn's lines about it) as plain text. */
export function McpLogDialog({ name, onClose }: { name: string; onClose(): void }): React.JSX.Element {
  const t = useT()
  const { client } = useApp()
  const [text, setText] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    let live = true
    client.request('mcp.log', { name }).then(
      (log) => live && setText(log.text),
      (failure: unknown) => live && setError(describeError(failure))
    )
    return () => {
      live = false
    }
  }, [client, name])
  return (
    <Dialog
      title={t('mcp.logTitle', { name })}
      wide
      onClose={onClose}
      actions={
        <button type="button" className="secondary-button" onClick={onClose}>
          {t('mcp.close')}
        </button>
      }
    >
      {error ? <Notice tone="error">{error}</Notice> : text === null ? <Spinner label={t('common.loading')} /> : text.trim() ? <pre className="plain-code mcp-log">{text}</pre> : <p className="muted">{t('mcp.logEmpty')}</p>}
    </Dialog>
  )
}
