import { readFileSync, statSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import type { AgentSession, TurnSummary } from '../core/agent/agent-session'
import { createAgentSession } from '../core/agent/create-agent'
import { createIncognitoSession } from '../core/agent/incognito-session'
import { AttachmentError, readAttachments, type AttachmentStore, type PreparedAttachment } from '../core/attachments'
import type { CairnCore } from '../core/cairn'
import { McpManager } from '../core/mcp/mcp-manager'
import { ProcessSecretStore } from '../serve/process-secrets'
import { askApproval, jsonPrinter, textPrinter, type AskLine } from './chat-output'
import { errorWordsOf } from '../../shared/keyed-error'
import { translator } from '../../shared/i18n'
import type { SessionStore } from '../core/sessions'
import { CliFailure, type CliIO } from './io'
import { keyedFailure } from './worded-failure'
import { appVersion } from './commands/serve'
import type { CliLearning } from './learning'
import { startFolder } from './workspace-option'
import type { MemoryRecall } from '../core/recall/memory-recall'
import { printRecalled } from './recall'
import { showCommandOutput, type CommandOutputs } from './command-output'
import { turnFailureLines } from './turn-failure-words'
import { isUnanswered } from '../core/sessions/turn-failure'

/** What every conversation of one `cairn chat` shares. */
export interface ChatSetup {
  core: CairnCore
  env: NodeJS.ProcessEnv
  io: CliIO
  workspace: string
  /** `--workspace` was given: a resumed session moves there. */
  move: boolean
  yes: boolean
  json: boolean
  learning: CliLearning
  /** How approvals are asked (the interactive session's own prompt); default: a one-off prompt on stdin. */
  ask?: AskLine
  /** The user's MCP servers for this process: each conversation opened takes a snapshot of their tools. */
  mcp?: Pick<McpManager, 'conversationTools'>
  /** The memory provider (`memory.provider`): recalls into each turn and is sent each finished one; none: nothing recalled or sent. */
  recall?: MemoryRecall | null
  /** `--incognito`: every conversation is kept in memory only, never reviewed, and gone when it ends. */
  incognito?: boolean
  /** Where a command's whole output is kept when what is shown was cut (the interactive session's `/output`). */
  outputs: CommandOutputs
}

/** An open conversation and where its messages and files are kept (the data home's stores, or an incognito one's in memory). */
export interface OpenedChat {
  session: AgentSession
  sessions: Pick<SessionStore, 'update'>
  attachments: Pick<AttachmentStore, 'save'>
  /** Ends it: an incognito conversation drops everything it held; a saved one stays as it is. */
  close(): void
}

/** Why a chat could not open, in the data home's language (`ui.language`); a missing session says how to list them. */
export function openFailureWords(core: CairnCore, error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const listWith = errorWordsOf(error)?.key === 'session.missing' ? 'cairn sessions' : undefined
  return keyedFailure(error, listWith).wordedIn(core.config.get().ui.language)
}

/** Opens a new session (or resumes `sessionId`; never incognito) with the CLI's output and approvals wired to it. Throws what opening throws. */
export function openChatSession(setup: ChatSetup, sessionId: string | undefined): OpenedChat {
  const opened = setup.incognito ? openIncognito(setup) : openSaved(setup, sessionId)
  const { session } = opened
  const language = setup.core.config.get().ui.language
  const printer = setup.json ? jsonPrinter(setup.io) : textPrinter(setup.io, undefined, undefined, (event) => turnFailureLines(event, language, setup.core.paths.configFile))
  // Requests the session settled itself (a stopped turn denies what waits): not asked again.
  const settled = new Set<string>()
  session.events.on((event) => {
    printer(event)
    if (!setup.json) showCommandOutput(setup.io, event, setup.outputs)
    if (event.type === 'approval_resolved') settled.add(event.requestId)
    if (event.type === 'turn_started' && event.recalled && !setup.json) printRecalled(setup.core, setup.io, setup.env, event.recalled)
    if (event.type === 'approval_needed') {
      void askApproval(setup.io, event, setup.ask, () => settled.has(event.requestId))
        .catch(() => ({ allow: false }))
        .then((decision) => session.respondToApproval(event.requestId, decision))
    }
  })
  // An incognito conversation has no id worth keeping: the line says what it is instead.
  const first = setup.incognito ? translator(setup.core.config.get().ui.language)('incognito.notice') : `session: ${session.id}`
  setup.io.err(`${first}\nworkspace: ${setup.workspace}\n`)
  printProjectInstructions(setup, session)
  return opened
}

function openIncognito(setup: ChatSetup): OpenedChat {
  const chat = createIncognitoSession({
    core: setup.core,
    env: setup.env,
    workspace: setup.workspace,
    autoApprove: setup.yes,
    source: 'cli',
    mcpTools: setup.mcp?.conversationTools()
  })
  return { session: chat.session, sessions: chat.sessions, attachments: chat.attachments, close: () => chat.discard() }
}

function openSaved(setup: ChatSetup, sessionId: string | undefined): OpenedChat {
  const session = createAgentSession({
    core: setup.core,
    env: setup.env,
    sessionId,
    workspace: setup.workspace,
    moveWorkspace: setup.move,
    autoApprove: setup.yes,
    source: 'cli',
    hooks: setup.learning.loop.hooks,
    mcpTools: setup.mcp?.conversationTools(),
    recall: setup.recall ?? undefined
  })
  return { session, sessions: setup.core.sessions, attachments: setup.core.attachments, close: () => {} }
}

/**
 * Starts the enabled MCP servers of config.json for this `cairn chat` (none: null) and waits up to
 * `mcp.startWaitMs` for them; a server that is not ready by then is named on stderr with the reason.
 */
export async function startChatMcp(core: CairnCore, env: NodeJS.ProcessEnv, io: CliIO): Promise<McpManager | null> {
  const enabled = Object.values(core.config.get().mcpServers).some((raw) => (raw as { enabled?: unknown } | null)?.enabled !== false)
  if (!enabled) return null
  const secrets = new ProcessSecretStore(env)
  const manager = new McpManager({
    servers: () => core.config.get().mcpServers,
    settings: () => core.config.get().mcp,
    logDir: join(core.paths.logsDir, 'mcp'),
    resolveSecret: (name) => secrets.getSecret(name),
    env,
    clientVersion: appVersion()
  })
  manager.start()
  await manager.whenSettled(core.config.get().mcp.startWaitMs)
  for (const server of manager.list()) {
    if (server.status === 'failed' || server.status === 'starting') io.err(`cairn: MCP server "${server.name}" is not available: ${server.error?.message ?? 'still starting'}\n`)
  }
  return manager
}

/**
 * The files of `--attach`, relative to the folder cairn was started in, checked and read (a PDF's text
 * extracted) before any session is opened: a missing, too large or unsupported file stops the command
 * with nothing sent.
 */
export async function readAttachFiles(paths: string[], env: NodeJS.ProcessEnv): Promise<PreparedAttachment[]> {
  const inputs = paths.map((path) => {
    const full = resolve(startFolder(env), path)
    let bytes: Buffer
    try {
      if (!statSync(full).isFile()) throw new CliFailure(`Cannot attach ${path}: it is not a file.`)
      bytes = readFileSync(full)
    } catch (error) {
      if (error instanceof CliFailure) throw error
      const code = (error as NodeJS.ErrnoException).code
      throw new CliFailure(`Cannot attach ${path}: ${code === 'ENOENT' ? 'there is no such file' : (error as Error).message}.`)
    }
    return { name: basename(full), bytes }
  })
  try {
    return await readAttachments(inputs)
  } catch (error) {
    if (error instanceof AttachmentError) throw new CliFailure(`Cannot attach: ${error.message}`)
    throw error
  }
}

/**
 * A conversation whose only turn failed is kept, as the app keeps it (issue 29, part A): the prompt is
 * not lost, `cairn sessions` marks it not answered, and the same prompt run again answers it instead
 * of starting another (see commands/chat.ts), except one sent with `attached` files: that one is
 * continued with --session. Says so; returns whether it is such a conversation.
 */
export function reportUnanswered(setup: ChatSetup, session: AgentSession, summary: TurnSummary, attached = false): boolean {
  if (summary.reason !== 'failed' || setup.incognito) return false
  const stored = setup.core.sessions.get(session.id)
  if (!stored || !isUnanswered(stored)) return false
  // A prompt sent with --attach is never matched again (commands/chat.ts): it is continued with --session.
  const key = attached ? 'turnFailure.cli.keptAttached' : 'turnFailure.cli.kept'
  setup.io.err(`${translator(setup.core.config.get().ui.language)(key, { id: session.id })}\n`)
  return true
}

export function latestSessionId(core: CairnCore): string {
  const latest = core.sessions.latest()
  if (!latest) throw new CliFailure('There is no conversation to continue yet. Start one with: cairn chat "hello"')
  return latest.id
}

/** One line naming the repository's instruction files the conversation read (and one per file left out). */
function printProjectInstructions(setup: ChatSetup, session: AgentSession): void {
  const t = translator(setup.core.config.get().ui.language)
  const loaded = session.projectInstructions.filter((file) => file.text).map((file) => file.file)
  if (loaded.length) setup.io.err(`${t('project.instructions.cliLine', { files: loaded.join(', ') })}\n`)
  for (const file of session.projectInstructions) {
    if (file.blocked) setup.io.err(`${t('project.instructions.blocked', { file: file.file, why: file.blocked.join(', ') })}\n`)
  }
}
