import { createStore, type StoreApi } from 'zustand/vanilla'
import type { McpImportSource, McpList } from '../../../shared/ipc/contract-mcp'
import type { McpServerInfo } from '../../../shared/mcp'
import { type CairnClient } from '../ipc/client'
import { describeError } from '../ipc/error-words'

export interface McpState {
  /** The servers, config.json's `mcpServers` and which secrets are kept (null until first loaded). */
  list: McpList | null
  loadError: string | null
  /** Servers with a request in flight (their controls wait). */
  pending: Record<string, boolean>
  /** The last action's failure, shown above the list. */
  actionError: string | null
  /** Opening the section: lists the servers, which starts them. */
  load(): Promise<void>
  /** `mcp.changed`: the servers' new state. */
  changed(servers: McpServerInfo[]): void
  setEnabled(name: string, enabled: boolean): Promise<boolean>
  setTool(name: string, tool: string, flags: { enabled?: boolean; autoApprove?: boolean }): Promise<boolean>
  test(name: string): Promise<boolean>
  remove(name: string): Promise<boolean>
  reload(): Promise<boolean>
  /** Saves one server (added or pasted); throws the request's error so the form can show it. */
  save(input: { name: string; server: Record<string, unknown>; secrets?: { env?: Record<string, string>; headers?: Record<string, string> } }): Promise<void>
  /** Imports the servers picked from another app's config; throws like `save`. */
  importServers(from: McpImportSource, names: string[], renames: Record<string, string>): Promise<string[]>
  clearError(): void
}

export type McpStore = StoreApi<McpState>

export function createMcpStore(client: CairnClient): McpStore {
  return createStore<McpState>()((set, get) => {
    /** Runs one server's request (or the section's, `name` null), keeping its controls disabled meanwhile. */
    const act = async (name: string | null, run: () => Promise<McpList | McpServerInfo>): Promise<boolean> => {
      const key = name ?? ''
      set({ pending: { ...get().pending, [key]: true }, actionError: null })
      try {
        const result = await run()
        if ('servers' in result) set({ list: result })
        else get().changed((get().list?.servers ?? []).map((server) => (server.name === result.name ? result : server)))
        return true
      } catch (error) {
        set({ actionError: describeError(error) })
        return false
      } finally {
        const { [key]: _done, ...rest } = get().pending
        set({ pending: rest })
      }
    }
    return {
      list: null,
      loadError: null,
      pending: {},
      actionError: null,

      async load() {
        try {
          set({ list: await client.request('mcp.list'), loadError: null })
        } catch (error) {
          set({ loadError: describeError(error) })
        }
      },

      changed(servers) {
        const list = get().list
        if (list) set({ list: { ...list, servers } })
      },

      setEnabled: (name, enabled) => act(name, () => client.request('mcp.setEnabled', { name, enabled })),
      setTool: (name, tool, flags) => act(name, () => client.request('mcp.setTool', { name, tool, ...flags })),
      test: (name) => act(name, () => client.request('mcp.test', { name })),
      remove: (name) => act(name, () => client.request('mcp.remove', { name })),
      reload: () => act(null, () => client.request('mcp.reload')),

      async save(input) {
        set({ list: await client.request('mcp.save', input) })
      },

      async importServers(from, names, renames) {
        const result = await client.request('mcp.import', { from, names, renames })
        set({ list: result })
        return result.imported
      },

      clearError: () => set({ actionError: null })
    }
  })
}
