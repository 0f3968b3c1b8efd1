import { randomUUID } from 'node:crypto'
import type { ApprovalDecision, ApprovalScope } from '../../../shared/agent-events'
import type { SettingsStore } from '../config/config-store'
import type { ApprovalRequest } from '../tools/types'
import type { TurnEvent } from './turn'

export interface PendingApproval {
  requestId: string
  request: ApprovalRequest
  /** The tool call that asked. */
  callId?: string
  /** Suggested "always allow" prefix for a command. */
  prefix?: string
}

export interface ApprovalBrokerOptions {
  /** `--yes`: approve everything without asking. */
  autoApprove?: boolean
  /** Command prefixes the user chose to always allow (config `agent.allowedCommandPrefixes`). */
  commandPrefixes: () => string[]
  /** Persists a new always-allowed prefix. */
  savePrefix?: (prefix: string) => Promise<void>
  /** Announces a request that needs the user's answer (the agent turns it into an `approval_needed` event). */
  onRequest: (pending: PendingApproval) => void
  onResolved?: (requestId: string, allowed: boolean, remembered: ApprovalScope) => void
}

/**
 * Decides whether a write or command may run: policy first (auto-approve, tools allowed for this
 * session, always-allowed command prefixes), otherwise it asks and waits for {@link respond}.
 */
export class ApprovalBroker {
  private readonly sessionAllowed = new Set<string>()
  private readonly pending = new Map<string, { pending: PendingApproval; resolve: (allowed: boolean) => void }>()

  constructor(private readonly options: ApprovalBrokerOptions) {}

  async request(request: ApprovalRequest, signal?: AbortSignal, callId?: string): Promise<boolean> {
    if (this.options.autoApprove || this.sessionAllowed.has(request.tool)) return true
    if (request.kind === 'command' && request.command && matchesAllowedPrefix(request.command, this.options.commandPrefixes())) {
      return true
    }
    if (signal?.aborted) return false
    const requestId = randomUUID()
    const pending: PendingApproval = {
      requestId,
      request,
      callId,
      prefix: request.kind === 'command' && request.command ? suggestPrefix(request.command) : undefined
    }
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
    // Only a command with a prefix can be remembered by prefix; anything else is allowed just this once.
    if (scope === 'prefix' && !prefix) scope = 'once'
    if (decision.allow && scope === 'session') this.sessionAllowed.add(entry.pending.request.tool)
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
    onRequest: ({ requestId, callId, request, prefix }) =>
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
        prefix
      }),
    onResolved: (requestId, allowed, remembered) => emit({ type: 'approval_resolved', requestId, allowed, remembered })
  })
}

// Chaining, substitution and redirection would let an allowed prefix smuggle in another command.
const SHELL_CONTROL = /[;&|`<>\n\r]|\$\(/

/** True when `command` starts with an allowed prefix (at a word boundary) and does nothing else. */
export function matchesAllowedPrefix(command: string, prefixes: string[]): boolean {
  const trimmed = command.trim()
  if (SHELL_CONTROL.test(trimmed)) return false
  return prefixes.some((raw) => {
    const prefix = raw.trim()
    if (!prefix) return false
    return trimmed === prefix || trimmed.startsWith(prefix + ' ')
  })
}

/** The program and its first argument, e.g. `npm test -- --watch` → `npm test`. */
export function suggestPrefix(command: string): string {
  const words = command.trim().split(/\s+/)
  const head = words.slice(0, 2).filter((word) => !word.startsWith('-'))
  return head.join(' ')
}
