import { useEffect, useRef, useState } from 'react'
import type { McpPromptInfo } from '../../../../../shared/mcp'
import { useApp } from '../../../app/context'
import { describeError } from '../../../ipc/error-words'

/** What the `/` menu (features/prompts/SlashMenu.tsx) needs for MCP prompts: the matches, the argument form and the problem if any. */
export interface McpPromptMenu {
  matches: McpPromptInfo[]
  pick(prompt: McpPromptInfo): void
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
    matches,
    pick,
    asking,
    cancel: () => {
      setAsking(null)
      setProblem(null)
    },
    run,
    problem
  }
}
