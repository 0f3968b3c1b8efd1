import { useEffect, useRef, useState } from 'react'
import type { McpPromptInfo } from '../../../../../shared/mcp'
import { useApp } from '../../../app/context'
import { describeError } from '../../../ipc/error-words'

/** What the composer needs for `/` prompts: the menu's matches, its keys, the argument form and the problem if any. */
export interface McpPromptMenu {
  open: boolean
  matches: McpPromptInfo[]
  active: number
  setActive(index: number): void
  pick(prompt: McpPromptInfo): void
  /** The composer's keydown: true when the menu took the key (arrows, Enter, Tab, Esc). */
  onKeyDown(event: React.KeyboardEvent): boolean
  /** The prompt whose arguments are being asked for. */
  asking: McpPromptInfo | null
  cancel(): void
  run(prompt: McpPromptInfo, args: Record<string, string>): Promise<void>
  problem: string | null
}

export const promptLabel = (prompt: McpPromptInfo): string => `/${prompt.server}:${prompt.name}`

/**
 * Typing `/` at the start of an empty composer lists the MCP servers' prompts (`/<server>:<prompt>`,
 * filtered as you type); picking one asks for its arguments, if any, and fills the composer with the
 * prompt's text. The list is fetched each time the menu opens, so servers started since show up.
 */
export function useMcpPrompts(draft: string, enabled: boolean): McpPromptMenu {
  const { client, chat } = useApp()
  const [prompts, setPrompts] = useState<McpPromptInfo[] | null>(null)
  const [active, setActive] = useState(0)
  const [dismissed, setDismissed] = useState(false)
  const [asking, setAsking] = useState<McpPromptInfo | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const slash = enabled && /^\/\S*$/.test(draft)
  const live = useRef(true)

  useEffect(() => {
    live.current = true
    return () => {
      live.current = false
    }
  }, [])

  useEffect(() => {
    if (!slash) {
      setPrompts(null)
      setDismissed(false)
      return
    }
    if (prompts !== null) return
    // A failure (no server ready, browser mode without MCP) just means no menu.
    client.request('mcp.prompts').then(
      (list) => live.current && setPrompts(list),
      () => live.current && setPrompts([])
    )
  }, [slash, prompts, client])

  const query = slash ? draft.slice(1).toLowerCase() : ''
  const matches = (prompts ?? []).filter((prompt) => `${prompt.server}:${prompt.name}`.toLowerCase().includes(query))
  const open = slash && !dismissed && matches.length > 0 && asking === null
  const current = Math.min(active, Math.max(0, matches.length - 1))

  const run = async (prompt: McpPromptInfo, args: Record<string, string>): Promise<void> => {
    setProblem(null)
    try {
      const { text } = await client.request('mcp.getPrompt', { server: prompt.server, name: prompt.name, arguments: args })
      if (!live.current) return
      setAsking(null)
      chat.getState().setDraft(text)
    } catch (error) {
      if (live.current) setProblem(describeError(error))
    }
  }
  const pick = (prompt: McpPromptInfo): void => {
    if (prompt.arguments.length > 0) setAsking(prompt)
    else void run(prompt, {})
  }

  return {
    open,
    matches,
    active: current,
    setActive,
    pick,
    asking,
    cancel: () => {
      setAsking(null)
      setProblem(null)
    },
    run,
    problem,
    onKeyDown(event) {
      if (!open || event.nativeEvent.isComposing) return false
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        const step = event.key === 'ArrowDown' ? 1 : -1
        setActive((current + step + matches.length) % matches.length)
      } else if (event.key === 'Enter' || event.key === 'Tab') {
        if (event.shiftKey) return false
        pick(matches[current])
      } else if (event.key === 'Escape') {
        setDismissed(true)
      } else return false
      event.preventDefault()
      event.stopPropagation()
      return true
    }
  }
}
