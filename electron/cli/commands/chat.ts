import { createInterface } from 'node:readline/promises'
import { ellipsize } from '../../core/text/cut'
import type { AgentEvent, ApprovalDecision } from '../../../shared/agent-events'
import { prefixScope } from '../../../shared/command-prefix'
import { translator } from '../../../shared/i18n'
import { describeSessionAllow } from '../../../shared/i18n/describe'
import type { AgentSession } from '../../core/agent/agent-session'
import { createAgentSession } from '../../core/agent/create-agent'
import { parseCommandArgs } from '../args'
import { eraseFromLineStart } from '../terminal-erase'
import { cliLearning } from '../learning'
import { UsageError, type CliIO } from '../io'
import { chatWorkspace } from '../workspace-option'
import type { CliCommand } from './types'

export const chatCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] chat "<prompt>" [--session ID] [--workspace DIR] [--yes] [--json] [--wait]

Runs one turn: streams the answer to stdout and prints the session id on stderr. When the turn is
worth learning from, a background review starts; it finishes on its own after the CLI exits. The
conversation ends with the command: once it has learning.sessionEndMinTurns (default 2) user turns no
review has seen (continue it with --session), those are reviewed the same way.
  --session ID  continue an earlier session (see: cairn sessions); it works in its own folder again
  --workspace DIR  the folder the file and command tools work in (default: the folder cairn was
                started in); with --session, the session works there from now on
  --yes         approve file writes, commands, reads outside the workspace and fetches without asking
  --json        print every event as one JSON line instead of text
  --wait        wait for the reviews this command started and print what they learned
When a dropped answer is retried, the text already printed is erased on a terminal; when stdout is
not a terminal it is ended with "[discarded, retrying]" and the new answer starts on the next line.
Provider: config.json provider.*, overridden by CAIRN_BASE_URL and CAIRN_MODEL; key from CAIRN_API_KEY or OPENAI_API_KEY.
`,
  async run(ctx, args) {
    const { values, positionals } = parseCommandArgs(args, {
      session: { type: 'string' },
      workspace: { type: 'string' },
      yes: { type: 'boolean' },
      json: { type: 'boolean' },
      wait: { type: 'boolean' }
    })
    const prompt = positionals.join(' ').trim()
    if (!prompt) throw new UsageError('Give a prompt, e.g. cairn chat "What is in this folder?"')
    const core = await ctx.core()
    const where = chatWorkspace(values.workspace, ctx.env, values.session ? (core.sessions.get(values.session)?.workspace ?? null) : null)
    const learning = cliLearning(core, ctx.env, ctx.io, { wait: Boolean(values.wait), json: Boolean(values.json) })
    let session: AgentSession
    try {
      session = createAgentSession({
        core,
        env: ctx.env,
        sessionId: values.session,
        workspace: where.workspace,
        moveWorkspace: where.move,
        autoApprove: values.yes,
        source: 'cli',
        hooks: learning.loop.hooks
      })
    } catch (error) {
      await learning.host.close()
      ctx.io.err(`cairn: ${(error as Error).message}\n`)
      return 1
    }
    ctx.io.err(`session: ${session.id}\nworkspace: ${where.workspace}\n`)
    const printer = values.json ? jsonPrinter(ctx.io) : textPrinter(ctx.io)
    session.events.on((event) => {
      printer(event)
      if (event.type === 'approval_needed') {
        void askApproval(ctx.io, event)
          .catch(() => ({ allow: false }))
          .then((decision) => session.respondToApproval(event.requestId, decision))
      }
    })
    const onSigint = () => session.cancel()
    process.once('SIGINT', onSigint)
    const summary = await session.runTurn(prompt).done.finally(() => process.off('SIGINT', onSigint))
    // The command is the conversation's end: turns no review has seen yet are reviewed now (a single
    // new turn is below the minimum; a session continued with --session reaches it).
    learning.loop.endConversation(session.id, 'exit')
    await learning.finish()
    if (summary.reason === 'failed') return 1
    if (summary.reason === 'cancelled') return 130
    return 0
  }
}

function jsonPrinter(io: CliIO) {
  return (event: AgentEvent) => io.out(JSON.stringify(event) + '\n')
}

/** Printed after text a retry voided, when it cannot be erased (stdout is not a terminal). */
const DISCARDED_MARKER = '[discarded, retrying]'

function textPrinter(io: CliIO, columns: () => number | undefined = () => process.stdout.columns) {
  let midLine = false
  // What the current model call printed, so a retry that voids it can take it back.
  let partial = ''
  let partialStartedLine = true
  const discardPartial = () => {
    const erase = io.isTTY && partialStartedLine ? eraseFromLineStart(partial, columns()) : null
    // A pipe keeps what it got: close the void text off so the retried answer starts on its own line.
    io.out(erase ?? `${/\s$/.test(partial) ? '' : ' '}${DISCARDED_MARKER}\n`)
    midLine = false
  }
  return (event: AgentEvent) => {
    // Anything but text and retries happens between model calls: what was printed before it stays.
    if (event.type !== 'text_delta' && event.type !== 'retry') partial = ''
    switch (event.type) {
      case 'text_delta':
        if (!partial) partialStartedLine = !midLine
        partial += event.text
        io.out(event.text)
        midLine = !event.text.endsWith('\n')
        break
      case 'tool_call_started':
        if (midLine) io.out('\n')
        midLine = false
        io.err(`  → ${event.name} ${short(event.arguments)}\n`)
        break
      case 'tool_call_finished':
        io.err(`  ${event.ok ? '✓' : '✗'} ${event.name} (${event.durationMs} ms)${event.ok ? '' : ': ' + short(event.result)}\n`)
        break
      case 'retry':
        if (event.discardPartial && partial) discardPartial()
        partial = ''
        io.err(`  … ${event.reason} Retrying in ${Math.ceil(event.delayMs / 1000)} s (attempt ${event.attempt}).\n`)
        break
      case 'compressed':
        io.err(`  … condensed ${event.summarizedMessages} earlier messages to stay within the context window.\n`)
        break
      case 'error':
        if (midLine) io.out('\n')
        midLine = false
        io.err(`cairn: ${event.message}\n`)
        break
      case 'turn_finished':
        if (midLine) io.out('\n')
        midLine = false
        if (event.reason === 'cancelled') io.err('cairn: cancelled.\n')
        break
    }
  }
}

function short(text: string, max = 120): string {
  return ellipsize(text, max)
}

/** What "always" grants for a prefix (shared/command-prefix.ts), as the app's button says it. */
function prefixLabel(prefix: string): string {
  const scope = prefixScope(prefix)
  if (scope === 'exact') return `exactly "${prefix}"`
  return scope === 'checked' ? `"${prefix}" without options that write files or run programs` : `"${prefix}", with more arguments but no options`
}

async function askApproval(io: CliIO, event: Extract<AgentEvent, { type: 'approval_needed' }>): Promise<ApprovalDecision> {
  // Writes, commands, reads outside the workspace and fetches alike: nobody to ask means no.
  if (!process.stdin.isTTY) {
    io.err(`cairn: ${event.summary} needs approval, but there is no terminal to ask. Re-run with --yes to allow it.\n`)
    return { allow: false }
  }
  if (event.preview) io.err(`\n${event.preview}\n`)
  // The broker always says what it offers; without that, a command's session is its prefix (none: once only).
  const scopes = event.scopes ?? (event.kind !== 'command' ? ['once', 'session'] : event.prefix ? ['once', 'session', 'prefix'] : ['once'])
  // Worded as the app's button, with what it grants: `allow "npm test" for this conversation, with more arguments but no options`.
  const sessionLabel = describeSessionAllow({ ...event, scopes }, translator('en'))
  const always = scopes.includes('prefix') && event.prefix
    ? { label: prefixLabel(event.prefix), decision: { allow: true, remember: 'prefix', prefix: event.prefix } as const }
    : scopes.includes('folder') && event.folder
      ? { label: `reading in ${event.folder}`, decision: { allow: true, remember: 'folder' } as const }
      : scopes.includes('host') && event.host
        ? { label: `fetching from ${event.host}`, decision: { allow: true, remember: 'host' } as const }
        : null
  const options = ['[y]es', '[n]o', ...(sessionLabel ? [`[s] ${sessionLabel.charAt(0).toLowerCase()}${sessionLabel.slice(1)}`] : []), ...(always ? [`[a]lways allow ${always.label}`] : [])].join(' / ')
  const rl = createInterface({ input: process.stdin, output: process.stderr })
  try {
    const answer = (await rl.question(`\n${event.summary}\nAllow? ${options} `)).trim().toLowerCase()
    if (answer === 'y' || answer === 'yes') return { allow: true }
    if ((answer === 's' || answer === 'session') && sessionLabel) return { allow: true, remember: 'session' }
    if ((answer === 'a' || answer === 'always') && always) return always.decision
    return { allow: false }
  } finally {
    rl.close()
  }
}
