import { closeSync, openSync, writeSync } from 'node:fs'
import { wordedFailure } from '../worded-failure'
import { resolve } from 'node:path'
import { exportFormats, exportStream, MAX_PAGE_SIZE, type ExportFormat, type MessageRecord } from '../../core/sessions'
import { InvalidCursorError } from '../../core/sessions/session-pages'
import { userWords } from '../../core/sessions/stored-messages'
import { importedFromOf } from '../../core/import/imported-sessions'
import { isUnanswered } from '../../core/sessions/turn-failure'
import { translate, translator, type Language } from '../../../shared/i18n'
import { importedSpeaker } from '../../../shared/i18n/describe-imported'
import { parseCommandArgs, parseLimit } from '../args'
import { CliFailure, formatTime, oneLine, printJson, UsageError } from '../io'
import type { CliCommand, CliContext } from './types'

export const sessionsCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] sessions [--json] [--limit N] [--before CURSOR]
       cairn [--home DIR] sessions show <id> [--limit N] [--before MESSAGE_ID]
       cairn [--home DIR] sessions export <id> [--format md|json] [--out FILE]

Lists conversations, most recent first (📌 pinned, 🗄 archived), 20 at a time (--limit up to 500);
the last line says how to see the next ones. Continue one with: cairn chat "…" --session ID

  show <id>     the conversation's last 20 messages (--limit up to 500); --before MESSAGE_ID shows
                the ones before that message, and the first line says how to see earlier ones
  export <id>   the whole conversation as Markdown (default) or JSON, to stdout or to --out FILE;
                the skill hints Cairn adds for the model are left out
`,
  async run(ctx, args) {
    if (args[0] === 'export') return exportCommand(ctx, args.slice(1))
    if (args[0] === 'show') return showCommand(ctx, args.slice(1))
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' }, limit: { type: 'string' }, before: { type: 'string' } })
    if (positionals.length) throw new UsageError(`Unknown sessions action "${positionals[0]}". Use: cairn sessions [show <id> | export <id>]`)
    const core = await ctx.core()
    const limit = parseLimit(values.limit, 20, MAX_PAGE_SIZE)
    let page
    try {
      page = core.sessions.listPage({ limit, cursor: values.before })
    } catch (error) {
      if (error instanceof InvalidCursorError) throw new UsageError(`--before takes the cursor a previous page printed. ${error.message}`)
      throw error
    }
    const more = page.nextCursor ? `More: cairn sessions${values.json ? ' --json' : ''}${values.limit ? ` --limit ${limit}` : ''} --before ${page.nextCursor}\n` : ''
    if (values.json) {
      printJson(ctx.io, page.sessions.map(({ systemPrompt: _prompt, ...rest }) => rest))
      // stdout stays one JSON array; the way on goes to stderr.
      if (more) ctx.io.err(more)
      return 0
    }
    if (page.sessions.length === 0) {
      ctx.io.out(values.before ? 'No more sessions.\n' : 'No sessions yet. Start one with: cairn chat "hello"\n')
      return 0
    }
    for (const s of page.sessions) {
      const mark = s.pinned ? '📌 ' : s.archived ? '🗄 ' : ''
      const unanswered = isUnanswered(s) ? `  [${translate(core.config.get().ui.language, 'turnFailure.unanswered')}]` : ''
      ctx.io.out(`${s.id}  ${formatTime(s.updatedAt)}  ${String(s.messageCount).padStart(4)} msgs  ${mark}${oneLine(s.title, 60) || '(untitled)'}${unanswered}\n`)
    }
    ctx.io.out(more)
    return 0
  }
}

async function showCommand(ctx: CliContext, args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { limit: { type: 'string' }, before: { type: 'string' } })
  if (positionals.length !== 1) throw new UsageError('Name one conversation: cairn sessions show <id> [--limit N] [--before MESSAGE_ID]. List ids with: cairn sessions')
  const limit = parseLimit(values.limit, 20, MAX_PAGE_SIZE)
  const before = values.before === undefined ? undefined : Number(values.before)
  if (before !== undefined && !(Number.isSafeInteger(before) && before > 0)) throw new UsageError(`--before takes a message id (a whole number), not "${values.before}".`)
  const core = await ctx.core()
  const sessionId = positionals[0]
  const session = core.sessions.get(sessionId)
  if (!session) throw wordedFailure('conversation.missing', { id: sessionId }, 'cairn sessions')
  const page = core.sessions.messagePage(sessionId, { limit, before })!
  ctx.io.out(`${session.title?.trim() || '(untitled)'}  ${session.id}  ${session.messageCount} msgs\n`)
  if (page.hasOlder) ctx.io.out(`Earlier: cairn sessions show ${sessionId}${values.limit ? ` --limit ${limit}` : ''} --before ${page.messages[0].id}\n`)
  ctx.io.out('\n')
  const speakers = speakerLabels(core.config.get().ui.language)
  for (const m of page.messages) {
    const line = shownLine(m, speakers)
    if (line) ctx.io.out(`${line}\n`)
  }
  if (!page.messages.length) ctx.io.out(before === undefined ? 'No messages yet.\n' : `No messages before ${before}.\n`)
  return 0
}

/** One message per line: who said it and the start of what they said (a compacted one is marked). */
function shownLine(m: MessageRecord, speakers: (m: MessageRecord) => string): string {
  const mark = m.compacted ? ' (condensed)' : ''
  const at = `#${m.id} ${formatTime(m.createdAt)}${mark}`
  switch (m.role) {
    case 'user':
      return `${at}  You: ${oneLine(userWords(m), 200)}`
    case 'assistant': {
      const calls = m.toolCalls?.length ? `[called ${m.toolCalls.map((c) => c.name).join(', ')}] ` : ''
      return `${at}  ${speakers(m)}: ${calls}${oneLine(m.content, 200)}`
    }
    case 'tool':
      return `${at}    ↳ ${m.toolName ?? 'tool'}: ${oneLine(m.content, 120)}`
    case 'summary':
      return `${at}  Summary of earlier messages: ${oneLine(m.content, 200)}`
    default:
      return ''
  }
}

/** Who wrote an answer: Cairn, or the app it was imported from with its model ("ChatGPT (o3)"). */
function speakerLabels(language: Language): (m: MessageRecord) => string {
  const t = translator(language)
  return (m) => {
    const app = importedFromOf(m.meta)
    if (!app) return 'Cairn'
    const model = typeof m.meta?.model === 'string' && m.meta.model ? m.meta.model : null
    return importedSpeaker({ app, model }, t)
  }
}

async function exportCommand(ctx: CliContext, args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { format: { type: 'string', default: 'md' }, out: { type: 'string' } })
  if (positionals.length !== 1) throw new UsageError('Name one conversation: cairn sessions export <id> [--format md|json] [--out FILE]. List ids with: cairn sessions')
  const format = values.format as ExportFormat
  if (!exportFormats.includes(format)) throw new UsageError(`--format must be ${exportFormats.join(' or ')}, not "${values.format}".`)
  const core = await ctx.core()
  const sessionId = positionals[0]
  if (!core.sessions.get(sessionId)) throw wordedFailure('conversation.missing', { id: sessionId }, 'cairn sessions')
  // Written as it is read, a page of messages at a time.
  const t = translator(core.config.get().ui.language)
  const { chunks } = exportStream(core.sessions, sessionId, format, { importedSpeaker: (imported) => importedSpeaker(imported, t) })
  if (!values.out) {
    for (const chunk of chunks) ctx.io.out(chunk)
    return 0
  }
  const target = resolve(values.out)
  try {
    const file = openSync(target, 'w')
    try {
      for (const chunk of chunks) writeSync(file, chunk)
    } finally {
      closeSync(file)
    }
  } catch (error) {
    throw new CliFailure(`Could not write ${target}: ${(error as Error).message}`)
  }
  ctx.io.err(`Exported ${sessionId} to ${target}\n`)
  return 0
}
