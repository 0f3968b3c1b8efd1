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
  /** Suggested "always allow" prefix for a command. */
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
  /** Announces a request that needs the user's answer (the agent turns it into an `approval_needed` event). */
  onRequest: (pending: PendingApproval) => void
  onResolved?: (requestId: string, allowed: boolean, remembered: ApprovalScope) => void
}

/**
 * Decides whether a write, command, read or fetch may run: policy first (auto-approve, tools allowed
 * for this session, always-allowed command prefixes, read folders and fetch hosts), otherwise it asks
 * and waits for {@link respond}.
 */
export class ApprovalBroker {
  private readonly sessionAllowed = new Set<string>()
  /** Read folders and fetch hosts allowed for this session (a read or fetch never grants its whole tool). */
  private readonly sessionFolders = new Set<string>()
  private readonly sessionHosts = new Set<string>()
  private readonly pending = new Map<string, { pending: PendingApproval; resolve: (allowed: boolean) => void }>()

  constructor(private readonly options: ApprovalBrokerOptions) {}

  async request(request: ApprovalRequest, signal?: AbortSignal, callId?: string): Promise<boolean> {
    if (this.options.autoApprove || this.granted(request)) return true
    if (request.kind === 'command' && request.command && matchesAllowedPrefix(request.command, this.options.commandPrefixes())) {
      return true
    }
    if (signal?.aborted) return false
    const requestId = randomUUID()
    const pending: PendingApproval = {
      requestId,
      request,
      callId,
      prefix: request.kind === 'command' && request.command ? suggestPrefix(request.command) : undefined,
      scopes: []
    }
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
    const prefix = entry.pending.request.kind === 'command' ? (decision.prefix ?? entry.pending.prefix ?? '').trim() : ''
    let scope: ApprovalScope = decision.allow ? decision.remember ?? 'once' : 'once'
    // Only what was offered can be remembered (a prefix only for a command that has one); else just this once.
    if (!entry.pending.scopes.includes(scope) || (scope === 'prefix' && !prefix)) scope = 'once'
    if (decision.allow && scope !== 'once') await this.remember(entry.pending.request, scope)
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

  /** Allowed earlier: the tool for this session (writes, commands), or the read's folder or the fetch's host. */
  private granted(request: ApprovalRequest): boolean {
    if (request.kind === 'read') {
      const path = request.path
      if (!path) return false
      const always = (this.options.readFolders?.() ?? [])
        .map((folder) => expandTilde(folder.trim()))
        .filter((folder) => isAbsolute(folder))
        .map((folder) => realPathOf(folder))
      return [...this.sessionFolders, ...always].some((folder) => isWithin(path, folder))
    }
    if (request.kind === 'fetch') {
      // An address carrying data read this turn is never allowed by an earlier answer.
      if (!request.host || request.carriedData) return false
      const host = request.host.toLowerCase()
      return this.sessionHosts.has(host) || (this.options.fetchHosts?.() ?? []).some((allowed) => allowed.trim().toLowerCase() === host)
    }
    // A conversation's write grant covers its workspace only: outside it, every write is asked about.
    if (request.outsideWorkspace) return false
    return this.sessionAllowed.has(request.tool)
  }

  /** Keeps a grant for the session, and saves an "always" one (a failed save still leaves the session grant). */
  private async remember(request: ApprovalRequest, scope: ApprovalScope): Promise<void> {
    if (request.kind === 'read' && request.folder) this.sessionFolders.add(request.folder)
    else if (request.kind === 'fetch' && request.host) this.sessionHosts.add(request.host.toLowerCase())
    else if (scope === 'session') this.sessionAllowed.add(request.tool)
    const save = scope === 'folder' ? this.options.saveReadFolder : scope === 'host' ? this.options.saveFetchHost : undefined
    const what = scope === 'folder' ? request.folder : scope === 'host' ? request.host : undefined
    if (!save || !what) return
    try {
      await save(what)
    } catch (error) {
      console.error(`cairn: could not remember "${what}" as always allowed:`, error)
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

/** What may be answered: the tool's own list, else once and session, plus "always" for a command's prefix. */
function offeredScopes(pending: PendingApproval): ApprovalScope[] {
  if (pending.request.scopes) return pending.request.scopes
  return pending.prefix ? ['once', 'session', 'prefix'] : ['once', 'session']
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
        url: request.url,
        host: request.host,
        carriedData: request.carriedData,
        prefix,
        scopes
      }),
    onResolved: (requestId, allowed, remembered) => emit({ type: 'approval_resolved', requestId, allowed, remembered })
  })
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
