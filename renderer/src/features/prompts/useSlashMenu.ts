import { useEffect, useState } from 'react'
import { useStore } from 'zustand'
import type { McpPromptInfo } from '../../../../shared/mcp'
import { fillPrompt, type SavedPrompt } from '../../../../shared/prompts'
import { useApp } from '../../app/context'
import { useMcpPrompts, type McpPromptMenu } from '../chat/mcp/useMcpPrompts'

/** One row of the `/` menu: a saved prompt, an MCP server's prompt, or "Manage prompts…". */
export type SlashEntry = { kind: 'saved'; prompt: SavedPrompt } | { kind: 'mcp'; prompt: McpPromptInfo } | { kind: 'manage' }

/** What the composer needs from the `/` menu (the same shape it had for MCP prompts alone). */
export interface SlashMenu {
  open: boolean
  entries: SlashEntry[]
  /** Index into `entries` of the highlighted row. */
  active: number
  setActive(index: number): void
  pick(entry: SlashEntry): void
  /** The composer's keydown: true when the menu took the key (↑/↓, Enter or Tab, Esc). */
  onKeyDown(event: React.KeyboardEvent): boolean
  /** A saved prompt whose variables are being asked for. */
  filling: SavedPrompt | null
  closeFilling(): void
  /** Fills the saved prompt's variables and puts the text in the composer (not sent). */
  insert(prompt: SavedPrompt, values: Record<string, string>): void
  /** The MCP servers' prompts (their argument form and its problem). */
  mcp: McpPromptMenu
  /** Something is being asked for (a saved prompt's variables or an MCP prompt's arguments). */
  asking: boolean
  problem: string | null
}

/** Whether a saved prompt matches what follows the `/`: its name, or words of its description. */
function matchesSaved(prompt: SavedPrompt, query: string): boolean {
  return prompt.name.includes(query) || prompt.description.toLowerCase().includes(query)
}

/**
 * Typing `/` at the start of an empty composer lists the saved prompts, then the MCP servers' prompts,
 * then "Manage prompts…", filtered as you type. The library is read again each time the menu opens,
 * so a prompt edited in an editor or brought by a sync is there.
 */
export function useSlashMenu(draft: string, enabled: boolean): SlashMenu {
  const { chat, prompts: library } = useApp()
  const mcp = useMcpPrompts(draft, enabled)
  const saved = useStore(library, (s) => s.prompts)
  const [active, setActive] = useState(0)
  const [dismissed, setDismissed] = useState(false)
  const [filling, setFilling] = useState<SavedPrompt | null>(null)
  const slash = enabled && /^\/\S*$/.test(draft)

  useEffect(() => {
    if (slash) void library.getState().load()
    else setDismissed(false)
  }, [slash, library])

  const query = slash ? draft.slice(1).toLowerCase() : ''
  const entries: SlashEntry[] = [
    ...saved.filter((prompt) => matchesSaved(prompt, query)).map((prompt) => ({ kind: 'saved' as const, prompt })),
    ...mcp.matches.map((prompt) => ({ kind: 'mcp' as const, prompt }))
  ]
  // Text such as `/usr/bin` that matches no prompt sends as typed; a bare `/` (or `/manage`) offers the library.
  if (entries.length > 0 || query === '' || 'manage'.startsWith(query)) entries.push({ kind: 'manage' })
  const asking = filling !== null || mcp.asking !== null
  const open = slash && !dismissed && !asking
  const current = Math.min(active, Math.max(0, entries.length - 1))

  const insert = (prompt: SavedPrompt, values: Record<string, string>): void => {
    setFilling(null)
    chat.getState().setDraft(fillPrompt(prompt.body, values))
  }
  const pick = (entry: SlashEntry): void => {
    setActive(0)
    if (entry.kind === 'mcp') mcp.pick(entry.prompt)
    else if (entry.kind === 'manage') {
      chat.getState().setDraft('')
      library.getState().openLibrary()
    } else if (entry.prompt.variables.length > 0) setFilling(entry.prompt)
    else insert(entry.prompt, {})
  }

  return {
    open,
    entries,
    active: current,
    setActive,
    pick,
    filling,
    closeFilling: () => setFilling(null),
    insert,
    mcp,
    asking,
    problem: mcp.problem,
    onKeyDown(event) {
      if (!open || event.nativeEvent.isComposing) return false
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        const step = event.key === 'ArrowDown' ? 1 : -1
        setActive((current + step + entries.length) % entries.length)
      } else if (event.key === 'Enter' || event.key === 'Tab') {
        if (event.shiftKey) return false
        pick(entries[current])
      } else if (event.key === 'Escape') {
        setDismissed(true)
      } else return false
      event.preventDefault()
      event.stopPropagation()
      return true
    }
  }
}
