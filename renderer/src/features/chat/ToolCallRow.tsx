import { memo, useId, useState } from 'react'
import { useChat, useT } from '../../app/context'
import { Icon } from '../../components/Icon'
import { Spinner } from '../../components/Feedback'
import type { ToolItem } from '../../stores/chat-items'
import { formatDuration } from './TerminalBlock'
import { ToolBody } from './ToolBodies'
import { McpServerFailure } from './McpServerFailure'
import { opensByDefault, toolState, toolSummary, toolTitle, type ToolState } from './tool-view'

/**
 * A tool call in plain words ("Ran a command", "Edited notes.md"), one line; unfolds to what it did,
 * shown by kind. Commands and file changes start unfolded once finished.
 */
export const ToolCallRow = memo(function ToolCallRow({ item }: { item: ToolItem }): React.JSX.Element {
  const t = useT()
  const awaitingApproval = useChat((s) => s.approvals.some((request) => request.callId === item.callId))
  const [chosen, setChosen] = useState<boolean | null>(null)
  const bodyId = useId()
  const state = toolState(item, awaitingApproval)
  const open = chosen ?? (opensByDefault(item.name) && (state === 'done' || state === 'failed'))
  const summary = toolSummary(item, t)
  return (
    <div className={`tool-call ${state}`} data-tool={item.name}>
      <button type="button" className="tool-call-head" aria-expanded={open} aria-controls={bodyId} onClick={() => setChosen(!open)}>
        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={14} />
        <span className="tool-call-icon">{state === 'running' ? <Spinner label={t('chat.tool.running')} /> : <Icon name={stateIcon(state)} size={14} />}</span>
        <span className="tool-call-name" title={item.name}>
          {toolTitle(item, state, t)}
        </span>
        {summary ? <span className="tool-call-hint">{summary}</span> : null}
        <span className="tool-call-meta">{stateText(state, item, t)}</span>
      </button>
      {open ? (
        <div className="tool-call-body" id={bodyId}>
          <ToolBody item={item} />
        </div>
      ) : null}
      {state === 'failed' ? <McpServerFailure result={item.result} /> : null}
    </div>
  )
})

function stateIcon(state: Exclude<ToolState, 'running'>): 'alert' | 'close' | 'lock' | 'tool' {
  return state === 'failed' ? 'alert' : state === 'declined' ? 'close' : state === 'approval' ? 'lock' : 'tool'
}

function stateText(state: ToolState, item: ToolItem, t: ReturnType<typeof useT>): string {
  switch (state) {
    case 'approval':
      return t('tools.awaitingApproval')
    case 'running':
      return t('chat.tool.running')
    case 'declined':
      return t('chat.tool.declined')
    case 'failed':
      return t('chat.tool.failed')
    case 'done':
      return item.durationMs !== null ? formatDuration(item.durationMs, t) : ''
  }
}
