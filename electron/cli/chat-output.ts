import { createInterface } from 'node:readline/promises'
import { stripVTControlCharacters } from 'node:util'
import type { AgentEvent, ApprovalDecision } from '../../shared/agent-events'
import { prefixScope } from '../../shared/command-prefix'
import { translator } from '../../shared/i18n'
import { describeSessionAllow } from '../../shared/i18n/describe'
import { visibleControls } from '../../shared/visible-text'
import { ellipsize } from '../core/text/cut'
import { eraseFromLineStart } from './terminal-erase'
import type { CliIO } from './io'
import { MarkdownBlocks, wantsTerminalMarkdown } from './terminal-markdown'
import { toolOutcome } from './tool-outcome'
import { approvalChoice, unclearAnswerLine } from './approval-answer'

/** Asks the user one question and gives the line typed; null when input ended or Ctrl+C was pressed instead. */
export type AskLine = (question: string) => Promise<string | null>

export function jsonPrinter(io: CliIO) {
  return (event: AgentEvent) => io.out(JSON.stringify(event) + '\n')
}

/** Printed after text a retry voided, when it cannot be erased (stdout is not a terminal). */
const DISCARDED_MARKER = '[discarded, retrying]'

/**
 * Prints an answer as it streams. On a terminal that takes styling (see wantsTerminalMarkdown) the
 * markdown is rendered block by block; anywhere else the model's text is written as it comes.
 */
export function textPrinter(
  io: CliIO,
  columns: () => number | undefined = () => process.stdout.columns,
  blocks: MarkdownBlocks | null = wantsTerminalMarkdown(io) ? new MarkdownBlocks() : null,
  /** A failed turn's lines (its cause and fix, in the user's language); default: the core's English. */
  failureLines: (event: Extract<AgentEvent, { type: 'error' }>) => string = (event) => `cairn: ${event.message}
`
) {
  let midLine = false
  // What the current model call streamed, and what of it is on screen (rendered, when markdown), so
  // a retry that voids it can take it back.
  let partial = ''
  let partialShown = ''
  let partialStartedLine = true
  const show = (text: string) => {
    if (!text) return
    partialShown += text
    io.out(text)
    midLine = !text.endsWith('\n')
  }
  const discardPartial = () => {
    blocks?.drop()
    if (!partialShown) return
    // Rendered text holds only styling sequences, which take no room: its rows are those of its visible text.
    const erase = io.isTTY && partialStartedLine ? eraseFromLineStart(blocks ? stripVTControlCharacters(partialShown) : partialShown, columns()) : null
    // A pipe keeps what it got: close the void text off so the retried answer starts on its own line.
    io.out(erase ?? `${/\s$/.test(partialShown) ? '' : ' '}${DISCARDED_MARKER}\n`)
    midLine = false
  }
  return (event: AgentEvent) => {
    // Anything but text and retries happens between model calls: what was printed before it stays.
    if (event.type !== 'text_delta' && event.type !== 'retry') {
      if (blocks) show(blocks.end())
      partial = ''
      partialShown = ''
    }
    switch (event.type) {
      case 'text_delta':
        if (!partial) partialStartedLine = !midLine
        partial += event.text
        // On a terminal without markdown, the model's escapes are written out: it could hide the prompts that follow.
        show(blocks ? blocks.push(event.text) : io.isTTY ? visibleControls(event.text) : event.text)
        break
      case 'tool_call_started':
        if (midLine) io.out('\n')
        midLine = false
        io.err(`  → ${visibleControls(`${event.name} ${short(event.arguments)}`, { newlines: false })}\n`)
        break
      case 'tool_call_finished': {
        const outcome = toolOutcome(event.name, event.ok, event.result)
        io.err(`  ${event.ok ? '✓' : '✗'} ${visibleControls(`${event.name} (${event.durationMs} ms)${outcome ? `: ${outcome}` : ''}`, { newlines: false })}\n`)
        break
      }
      case 'retry':
        if (event.discardPartial && partial) discardPartial()
        partial = ''
        partialShown = ''
        io.err(`  … ${event.reason} Retrying in ${Math.ceil(event.delayMs / 1000)} s (attempt ${event.attempt}).\n`)
        break
      case 'compressed':
        io.err(`  … condensed ${event.summarizedMessages} earlier messages to stay within the context window.\n`)
        break
      case 'error':
        if (midLine) io.out('\n')
        midLine = false
        io.err(failureLines(event))
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

/** Asks on the terminal whether to allow a tool action; `ask` is the interactive session's own prompt (one reader of stdin). */
export async function askApproval(
  io: CliIO,
  event: Extract<AgentEvent, { type: 'approval_needed' }>,
  ask?: AskLine,
  /** True once the request no longer waits (the turn was stopped): an answer after that is not asked again. */
  isSettled?: () => boolean
): Promise<ApprovalDecision> {
  // Writes, commands, reads outside the workspace and fetches alike: nobody to ask means no.
  const summary = visibleControls(event.summary, { newlines: false })
  if (!process.stdin.isTTY) {
    // A change to what the user owns is theirs to allow each time: --yes does not cover it.
    const how = event.kind === 'learn' || event.runsCode ? 'Only you can allow it, at a terminal; nothing was changed.' : 'Re-run with --yes to allow it.'
    io.err(`cairn: ${summary} needs approval, but there is no terminal to ask. ${how}\n`)
    return { allow: false }
  }
  // A command is shown whole, whatever its length (the part that differs may be at its end), with
  // every character that could overwrite or reorder what is shown written out.
  const shown = event.kind === 'command' && event.command ? event.command : event.preview
  if (shown) io.err(`\n${visibleControls(shown)}\n`)
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
        : scopes.includes('tool') && event.kind === 'mcp' && event.mcpTool
          ? { label: `"${event.mcpTool}" from ${event.server}, with any arguments`, decision: { allow: true, remember: 'tool' } as const }
          : null
  const options = ['[y]es', '[n]o', ...(sessionLabel ? [`[s] ${sessionLabel.charAt(0).toLowerCase()}${sessionLabel.slice(1)}`] : []), ...(always ? [`[a]lways allow ${always.label}`] : [])].join(' / ')
  const offered = ['y (yes)', 'n (no)', ...(sessionLabel ? ['s (this conversation)'] : []), ...(always ? ['a (always)'] : [])]
  let question = `\n${summary}\nAllow? ${visibleControls(options, { newlines: false })} `
  // Only a clear answer decides: anything else is asked again (what was typed is said back, not sent); no input at all is no.
  for (;;) {
    const typed = await (ask ?? askOnce)(question)
    if (typed === null || isSettled?.()) return { allow: false }
    const choice = approvalChoice(typed)
    if (choice === 'yes') return { allow: true }
    if (choice === 'no') return { allow: false }
    if (choice === 'session' && sessionLabel) return { allow: true, remember: 'session' }
    if (choice === 'always' && always) return always.decision
    io.err(`${visibleControls(unclearAnswerLine(typed, offered), { newlines: false })}\n`)
    question = `Allow? ${visibleControls(options, { newlines: false })} `
  }
}

/** One question on stdin; Ctrl+C or the end of input answers null (no). */
async function askOnce(question: string): Promise<string | null> {
  const rl = createInterface({ input: process.stdin, output: process.stderr })
  const ended = new Promise<null>((resolve) => {
    rl.once('close', () => resolve(null))
    rl.once('SIGINT', () => resolve(null))
  })
  try {
    return await Promise.race([rl.question(question), ended])
  } finally {
    rl.close()
  }
}
