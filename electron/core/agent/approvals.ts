import { randomUUID } from 'node:crypto'
import { isAbsolute } from 'node:path'
import type { ApprovalDecision, ApprovalScope } from '../../../shared/agent-events'
import type { SettingsStore } from '../config/config-store'
import { expandTilde } from '../config/home'
import type { ApprovalRequest } from '../tools/types'
import { checkAgainstPrefix, suggestPrefix as suggestCommandPrefix } from '../workspace/command-policy'
import { isWithin, realPathOf } from '../workspace/paths'
import type { TurnEvent } from './turn'

export interface PendingApproval {
  requestId: string
  request: ApprovalRequest
  /** The tool call that asked. */
  callId?: string
  /** A command's prefix: what "this conversation" and "always allow" grant (absent: neither is offered). */
  prefix?: string
  /** The answers the user may give (an "always" only where it names exactly what was shown). */
  scopes: ApprovalScope[]
}

export interface ApprovalBrokerOptions {
  /** `--yes`: approve everything without asking. */
  autoApprove?: boolean
  /** Command prefixes the user chose to always allow (config `agent.allowedCommandPrefixes`). */
  commandPrefixes: () => string[]
  /** Persists a new always-allowed prefix. */
  savePrefix?: (prefix: string) => Promise<void>
  /** Folders outside the workspace the user chose to always allow reading (config `agent.allowedReadFolders`). */
  readFolders?: () => string[]
  saveReadFolder?: (folder: string) => Promise<void>
  /** Hosts the user chose to always allow fetching from (config `agent.allowedFetchHosts`). */
  fetchHosts?: () => string[]
  saveFetchHost?: (host: string) => Promise<void>
  /** An MCP server's tools that run without asking (its live `autoApprove` in config.json). */
  mcpAutoApprove?: (server: string) => string[]
  /** "Always allow": adds exactly this tool of this server to its `autoApprove`. */
  saveMcpAutoApprove?: (server: string, tool: string) => Promise<void>
  /** Announces a request that needs the user's answer (the agent turns it into an `approval_needed` event). */
  onRequest: (pending: PendingApproval) => void
  onResolved?: (requestId: string, allowed: boolean, remembered: ApprovalScope) => void
}

/**
 * Decides whether a write, command, read or fetch may run: policy first (auto-approve, write tools
 * allowed for this session, command prefixes allowed for this session or always, read paths and
 * folders, fetch hosts), otherwise it asks and waits for {@link respond}.
 */
export class ApprovalBroker {
  /** Write tools allowed for this session (inside the workspace only). */
  private readonly sessionAllowed = new Set<string>()
  /** Command prefixes allowed for this session, checked word by word as saved ones (never the whole tool). */
  private readonly sessionPrefixes = new Set<string>()
  /** Reads allowed for this session: each real path, and whether it is a folder granted with everything below. */
  private readonly sessionReads = new Map<string, boolean>()
  /** Fetch hosts allowed for this session. */
  private readonly sessionHosts = new Set<string>()
  /** MCP tools allowed for this session, as `server\0tool`. */
  private readonly sessionMcpTools = new Set<string>()
  private readonly pending = new Map<string, { pending: PendingApproval; resolve: (allowed: boolean) => void }>()

  constructor(private readonly options: ApprovalBrokerOptions) {}

  async request(request: ApprovalRequest, signal?: AbortSignal, callId?: string): Promise<boolean> {
    // A change to what the user owns, or a write that makes other programs run code, is the user's to
    // allow every time: `--yes` and earlier grants do not cover it.
    const everyTime = request.kind === 'learn' || Boolean(request.runsCode) || Boolean(request.afterReading)
    if (!everyTime && (this.options.autoApprove || this.granted(request))) return true
    if (signal?.aborted) return false
    const requestId = randomUUID()
    // Outside the workspace a prefix grants nothing, so none is offered.
    const prefix = request.kind === 'command' && request.command && !request.outsideWorkspace ? suggestPrefix(request.command) : ''
    const pending: PendingApproval = { requestId, request, callId, prefix: prefix || undefined, scopes: [] }
    pending.scopes = offeredScopes(pending)
    return new Promise<boolean>((resolve) => {
      const onAbort = () => this.settle(requestId, false, 'once')
      signal?.addEventListener('abort', onAbort, { once: true })
      this.pending.set(requestId, {
        pending,
        resolve: (allowed) => {
          signal?.removeEventListener('abort', onAbort)
          resolve(allowed)
        }
      })
      this.options.onRequest(pending)
    })
  }

  /** The user's answer. Returns false when the request is unknown or already answered. */
  async respond(requestId: string, decision: ApprovalDecision): Promise<boolean> {
    const entry = this.pending.get(requestId)
    if (!entry) return false
    const { request } = entry.pending
    const prefix = request.kind === 'command' ? (decision.prefix ?? entry.pending.prefix ?? '').trim() : ''
    let scope: ApprovalScope = decision.allow ? decision.remember ?? 'once' : 'once'
    // Only what was offered can be remembered (a command's session or prefix only when it has one); else just this once.
    if (!entry.pending.scopes.includes(scope) || (request.kind === 'command' && (scope === 'session' ? !entry.pending.prefix : !prefix))) scope = 'once'
    if (decision.allow && scope !== 'once') await this.remember(entry.pending, scope)
    // Saved before the tool goes on (so its next command already matches), but a failed save must
    // never leave the tool waiting: it still gets its answer.
    if (decision.allow && scope === 'prefix') {
      try {
        await this.options.savePrefix?.(prefix)
      } catch (error) {
        console.error(`cairn: could not remember "${prefix}" as always allowed:`, error)
      }
    }
    this.settle(requestId, decision.allow, scope)
    return true
  }

  /**
   * Allowed earlier: a write tool for this session, a command's prefix (for this session or always),
   * the read's path or folder, or the fetch's host.
   */
  private granted(request: ApprovalRequest): boolean {
    if (request.kind === 'read') {
      const path = request.path
      if (!path) return false
      const always = (this.options.readFolders?.() ?? [])
        .map((folder) => expandTilde(folder.trim()))
        .filter((folder) => isAbsolute(folder))
        .map((folder) => realPathOf(folder))
      if (always.some((folder) => isWithin(path, folder))) return true
      return [...this.sessionReads].some(([granted, below]) => (below ? isWithin(path, granted) : path === granted))
    }
    if (request.kind === 'fetch') {
      // An address carrying data read this turn is never allowed by an earlier answer.
      if (!request.host || request.carriedData) return false
      const host = request.host.toLowerCase()
      return this.sessionHosts.has(host) || (this.options.fetchHosts?.() ?? []).some((allowed) => allowed.trim().toLowerCase() === host)
    }
    if (request.kind === 'mcp') {
      if (!request.server || !request.mcpTool) return false
      return this.sessionMcpTools.has(mcpKey(request.server, request.mcpTool)) || (this.options.mcpAutoApprove?.(request.server) ?? []).includes(request.mcpTool)
    }
    // A conversation's grants and saved prefixes cover its workspace only: outside it, every write and command is asked about.
    if (request.outsideWorkspace) return false
    if (request.kind === 'command') {
      const command = request.command
      return command ? matchesAllowedPrefix(command, [...this.sessionPrefixes, ...this.options.commandPrefixes()]) : false
    }
    return this.sessionAllowed.has(request.tool)
  }

  /**
   * Keeps a grant for the session, and saves an "always" one (a failed save still leaves the session
   * grant): a command's offered prefix, the file read (a folder read: it and below), a fetch's host.
   */
  private async remember(pending: PendingApproval, scope: ApprovalScope): Promise<void> {
    const { request } = pending
    if (request.kind === 'read') {
      const [path, below] = scope === 'folder' ? [request.folder, true] : [request.path, Boolean(request.readsFolder)]
      if (path) this.sessionReads.set(path, below || this.sessionReads.get(path) === true)
    } else if (request.kind === 'fetch' && request.host) this.sessionHosts.add(request.host.toLowerCase())
    else if (request.kind === 'command') {
      // The prefix the button named, never one the answer brings (a saved "always" prefix is saved below).
      if (scope === 'session' && pending.prefix) this.sessionPrefixes.add(pending.prefix)
    } else if (request.kind === 'mcp') {
      if (!request.server || !request.mcpTool) return
      this.sessionMcpTools.add(mcpKey(request.server, request.mcpTool))
      if (scope === 'tool') await this.saveMcpTool(request.server, request.mcpTool)
      return
    } else if (scope === 'session') this.sessionAllowed.add(request.tool)
    const save = scope === 'folder' ? this.options.saveReadFolder : scope === 'host' ? this.options.saveFetchHost : undefined
    const what = scope === 'folder' ? request.folder : scope === 'host' ? request.host : undefined
    if (!save || !what) return
    try {
      await save(what)
    } catch (error) {
      console.error(`cairn: could not remember "${what}" as always allowed:`, error)
    }
  }

  private async saveMcpTool(server: string, tool: string): Promise<void> {
    try {
      await this.options.saveMcpAutoApprove?.(server, tool)
    } catch (error) {
      console.error(`cairn: could not remember the MCP tool ${server}/${tool} as always allowed:`, error)
    }
  }

  /** Requests still waiting for an answer (a window opened mid-turn shows them). */
  pendingRequests(): PendingApproval[] {
    return [...this.pending.values()].map((entry) => entry.pending)
  }

  /** Denies everything still waiting (the turn was cancelled). */
  denyAll(): void {
    for (const requestId of [...this.pending.keys()]) this.settle(requestId, false, 'once')
  }

  private settle(requestId: string, allowed: boolean, scope: ApprovalScope): void {
    const entry = this.pending.get(requestId)
    if (!entry) return
    this.pending.delete(requestId)
    entry.resolve(allowed)
    this.options.onResolved?.(requestId, allowed, scope)
  }
}

/**
 * What may be answered: only once outside the workspace; a command's session and "always" only with a
 * prefix; else the tool's own list, or once and session (plus "always" for a command's prefix).
 */
function offeredScopes(pending: PendingApproval): ApprovalScope[] {
  const { request, prefix } = pending
  if (request.outsideWorkspace || request.kind === 'learn' || request.runsCode) return ['once']
  if (request.kind === 'command') {
    if (!prefix) return ['once']
    return request.scopes ?? ['once', 'session', 'prefix']
  }
  return request.scopes ?? ['once', 'session']
}

/**
 * The broker of one chat: always-allowed command prefixes are read from and saved to the settings,
 * and each request and answer becomes a turn event.
 */
export function chatApprovals(options: { settings: SettingsStore; autoApprove?: boolean; emit: (event: TurnEvent) => void }): ApprovalBroker {
  const { settings, emit } = options
  return new ApprovalBroker({
    autoApprove: options.autoApprove,
    commandPrefixes: () => settings.get().agent.allowedCommandPrefixes,
    savePrefix: async (prefix) => {
      const current = settings.get().agent.allowedCommandPrefixes
      if (!current.includes(prefix)) await settings.update({ agent: { allowedCommandPrefixes: [...current, prefix] } })
    },
    readFolders: () => settings.get().agent.allowedReadFolders,
    saveReadFolder: async (folder) => {
      const current = settings.get().agent.allowedReadFolders
      if (!current.includes(folder)) await settings.update({ agent: { allowedReadFolders: [...current, folder] } })
    },
    fetchHosts: () => settings.get().agent.allowedFetchHosts,
    saveFetchHost: async (host) => {
      const current = settings.get().agent.allowedFetchHosts
      if (!current.includes(host)) await settings.update({ agent: { allowedFetchHosts: [...current, host] } })
    },
    mcpAutoApprove: (server) => mcpServerAutoApprove(settings.get().mcpServers[server]),
    saveMcpAutoApprove: async (server, tool) => {
      // The server's raw object goes back whole, with only the tool added: nothing else in it changes.
      const raw = settings.get().mcpServers[server]
      if (!isPlainObject(raw)) throw new Error(`the MCP server "${server}" is not in config.json any more`)
      const current = mcpServerAutoApprove(raw)
      if (!current.includes(tool)) await settings.update({ mcpServers: { [server]: { ...raw, autoApprove: [...current, tool] } } })
    },
    onRequest: ({ requestId, callId, request, prefix, scopes }) =>
      emit({
        type: 'approval_needed',
        requestId,
        callId: callId ?? '',
        kind: request.kind,
        tool: request.tool,
        summary: request.summary,
        command: request.command,
        cwd: request.cwd,
        path: request.path,
        preview: request.preview,
        folder: request.folder,
        readsFolder: request.readsFolder,
        url: request.url,
        host: request.host,
        carriedData: request.carriedData,
        outsideWorkspace: request.outsideWorkspace,
        server: request.server,
        mcpTool: request.mcpTool,
        learn: request.learn,
        runsCode: request.runsCode,
        afterReading: request.afterReading,
        prefix,
        scopes
      }),
    onResolved: (requestId, allowed, remembered) => emit({ type: 'approval_resolved', requestId, allowed, remembered })
  })
}

function mcpKey(server: string, tool: string): string {
  return `${server}\u0000${tool}`
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The tool names in a raw server entry's `autoApprove` (a malformed entry allows nothing). */
function mcpServerAutoApprove(raw: unknown): string[] {
  const list = isPlainObject(raw) ? raw.autoApprove : undefined
  return Array.isArray(list) ? list.filter((name): name is string => typeof name === 'string') : []
}

// Chaining, substitution and redirection would let an allowed prefix smuggle in another command.
const SHELL_CONTROL = /[;&|`<>\n\r]|\$\(/

/**
 * True when `command` starts with an allowed prefix (word by word, as the shell reads it), does nothing
 * else, and adds nothing the prefix does not grant: no option that writes files or runs programs
 * (see workspace/command-policy.ts for the rule).
 */
export function matchesAllowedPrefix(command: string, prefixes: string[]): boolean {
  const trimmed = command.trim()
  if (SHELL_CONTROL.test(trimmed)) return false
  return prefixes.some((raw) => raw.trim() !== '' && checkAgainstPrefix(trimmed, raw).allowed)
}

/** The prefix offered for "always allow", e.g. `npm test -- --watch` → `npm test` (see command-policy.ts). */
export function suggestPrefix(command: string): string {
  return suggestCommandPrefix(command)
}
