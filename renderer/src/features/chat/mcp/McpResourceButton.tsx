import { useEffect, useState } from 'react'
import { attachmentKindOf } from '../../../../../shared/attachments'
import type { McpResourceInfo } from '../../../../../shared/mcp'
import { useApp, useSettings, useT } from '../../../app/context'
import { Dialog } from '../../../components/Dialog'
import { Notice, Spinner } from '../../../components/Feedback'
import { Icon } from '../../../components/Icon'
import { describeError } from '../../../ipc/error-words'

/**
 * "Attach from MCP server", beside the file picker: lists the ready servers' resources and hands the
 * chosen one's text to the composer as a text file (its chips and checks, like a picked file). Shown
 * once any MCP server is configured.
 */
export function McpResourceButton({ disabled, onAttach }: { disabled: boolean; onAttach(file: File): Promise<void> }): React.JSX.Element | null {
  const t = useT()
  const configured = useSettings((s) => Object.keys(s.view?.config.mcpServers ?? {}).length > 0)
  const [open, setOpen] = useState(false)
  if (!configured) return null
  return (
    <>
      <button type="button" className="composer-attach" disabled={disabled} onClick={() => setOpen(true)} aria-label={t('mcp.resources.attach')} title={t('mcp.resources.attach')}>
        <Icon name="plug" size={17} />
      </button>
      {open ? <ResourceDialog onClose={() => setOpen(false)} onAttach={onAttach} /> : null}
    </>
  )
}

function ResourceDialog({ onClose, onAttach }: { onClose(): void; onAttach(file: File): Promise<void> }): React.JSX.Element {
  const t = useT()
  const { client } = useApp()
  const [resources, setResources] = useState<McpResourceInfo[] | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [reading, setReading] = useState<string | null>(null)

  useEffect(() => {
    let live = true
    client.request('mcp.resources').then(
      (list) => live && setResources(list),
      (error: unknown) => live && setProblem(describeError(error))
    )
    return () => {
      live = false
    }
  }, [client])

  const attach = async (resource: McpResourceInfo): Promise<void> => {
    setReading(resource.uri)
    setProblem(null)
    try {
      const read = await client.request('mcp.readResource', { server: resource.server, uri: resource.uri })
      await onAttach(textFile(read.name || resource.name, read.text, read.mimeType))
      onClose()
    } catch (error) {
      setProblem(describeError(error))
      setReading(null)
    }
  }

  return (
    <Dialog
      title={t('mcp.resources.title')}
      wide
      onClose={onClose}
      actions={
        <button type="button" className="secondary-button" onClick={onClose}>
          {t('mcp.cancel')}
        </button>
      }
    >
      {problem ? <Notice tone="error">{problem}</Notice> : null}
      {resources === null ? (
        problem ? null : <Spinner label={t('mcp.resources.loading')} />
      ) : resources.length === 0 ? (
        <p className="muted">{t('mcp.resources.none')}</p>
      ) : (
        <ul className="mcp-resource-list">
          {resources.map((resource) => (
            <li key={`${resource.server} ${resource.uri}`}>
              <button
                type="button"
                className="mcp-resource"
                disabled={reading !== null}
                aria-label={t('mcp.resources.attachOne', { name: resource.title ?? resource.name })}
                onClick={() => void attach(resource)}
              >
                <span className="mcp-resource-name">{resource.title ?? resource.name}</span>
                <span className="mcp-server-target">
                  {resource.server} · {resource.uri}
                </span>
                {resource.description ? <span className="mcp-prompt-description">{resource.description}</span> : null}
              </button>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  )
}

/** The resource's text as a file the composer reads as text, whatever its name says. */
function textFile(name: string, text: string, mimeType?: string): File {
  const mime = mimeType && attachmentKindOf('x', mimeType)?.kind === 'text' ? mimeType : 'text/plain'
  const base = name.split(/[\\/]/).pop() || 'resource'
  const fileName = attachmentKindOf(base, mime)?.kind === 'text' && /\.[A-Za-z0-9]+$/.test(base) ? base : `${base}.txt`
  return new File([text], fileName, { type: mime })
}
