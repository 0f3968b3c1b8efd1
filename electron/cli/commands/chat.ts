import { join } from 'node:path'
import { parseCommandArgs } from '../args'
import { CommandOutputs } from '../command-output'
import { latestSessionId, openChatSession, openFailureWords, readAttachFiles, reportUnanswered, startChatMcp, type ChatSetup } from '../chat-session'
import type { PreparedAttachment } from '../../core/attachments'
import type { CairnCore } from '../../core/cairn'
import { runInteractiveChat } from '../chat-repl'
import { cliLearning, type CliLearning } from '../learning'
import { UsageError } from '../io'
import { chatWorkspace } from '../workspace-option'
import { cliRecall } from '../recall'
import type { CliCommand, CliContext } from './types'

export const chatCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] chat ["<prompt>"] [--session ID | --continue | --incognito] [--workspace DIR] [--attach FILE]... [--yes] [--json] [--wait]

Without a prompt: an interactive session (/help, /new, /model [NAME], /inbox, /output, /exit; ↑ for earlier
prompts, Ctrl+C stops an answer, Ctrl+D leaves). On a terminal answers render as markdown (NO_COLOR
or a pipe: plain text, byte for byte). With a prompt, runs one turn: streams
the answer to stdout and prints the session id on stderr. When the turn is worth learning from, a
background review starts; it finishes on its own after the CLI exits. The
conversation ends with the command: once it has learning.sessionEndMinTurns (default 2) user turns no
review has seen (continue it with --session), those are reviewed the same way.
  --session ID  continue an earlier session (see: cairn sessions); it works in its own folder again
  --continue    continue the latest conversation (the first one cairn sessions lists)
  --incognito   a conversation that is not saved and not learned from: no memory, skills or past
                conversations reach it, nothing of it is kept in the data home (only what its tools
                write in the workspace), and it is gone when the command ends (in the interactive
                session, /new starts another incognito one)
  --workspace DIR  the folder the file and command tools work in (default: the folder cairn was
                started in); with --session, the session works there from now on
  --attach FILE send a file with the prompt (repeatable, at most 10): an image (PNG, JPEG, GIF,
                WebP; up to 20 MB) as an image part, a PDF or text file (up to 10 MB) as its text
                (the first 100000 characters). Files go only to the configured provider.
  --yes         approve file writes, commands, reads outside the workspace and fetches without asking
  --json        print every event as one JSON line instead of text
  --wait        wait for the reviews this command started and print what they learned
A first turn that fails (no model, a bad key) keeps its conversation, marked not answered in cairn
sessions; once fixed, the same prompt run again answers that conversation instead of starting another.
When a dropped answer is retried, the text already printed is erased on a terminal; when stdout is
not a terminal it is ended with "[discarded, retrying]" and the new answer starts on the next line.
Provider: config.json provider.*, overridden by CAIRN_BASE_URL and CAIRN_MODEL; key from CAIRN_API_KEY or OPENAI_API_KEY.
`,
  async run(ctx, args) {
    const { values, positionals } = parseCommandArgs(args, {
      session: { type: 'string' },
      continue: { type: 'boolean' },
      workspace: { type: 'string' },
      yes: { type: 'boolean' },
      json: { type: 'boolean' },
      wait: { type: 'boolean' },
      attach: { type: 'string', multiple: true },
      incognito: { type: 'boolean' }
    })
    const prompt = positionals.join(' ').trim()
    if (!prompt && values.json) throw new UsageError('--json needs a prompt, e.g. cairn chat "What is in this folder?" --json')
    if (values.continue && values.session) throw new UsageError('Give --session ID or --continue, not both.')
    if (values.incognito && (values.continue || values.session)) throw new UsageError('--incognito starts a new conversation that is never kept; it cannot continue one.')
    if (values.incognito && values.wait) throw new UsageError('--incognito conversations are never reviewed, so there is nothing to --wait for.')
    if (!prompt && values.attach?.length) throw new UsageError('--attach needs a prompt, e.g. cairn chat "Summarise this" --attach report.pdf')
    const core = await ctx.core()
    const resumeId = values.continue ? latestSessionId(core) : values.session
    const where = chatWorkspace(values.workspace, ctx.env, resumeId ? (core.sessions.get(resumeId)?.workspace ?? null) : null)
    const learning = cliLearning(core, ctx.env, ctx.io, { wait: Boolean(values.wait), json: Boolean(values.json) })
    let attachments: PreparedAttachment[] = []
    try {
      // Checked before any MCP server starts: a mistyped file fails at once, without waiting for them.
      attachments = await readAttachFiles(values.attach ?? [], ctx.env)
    } catch (error) {
      return failBeforeChat(ctx, core, learning, error)
    }
    // The user's MCP servers live as long as this command; every exit path closes them (no child left behind).
    const mcp = await startChatMcp(core, ctx.env, ctx.io)
    // An incognito chat reaches no provider: none is built, so none is warmed (no Honcho peer, no Mem0 start).
    const recall = values.incognito ? null : cliRecall(core, ctx.env)
    try {
      return await chatOnce(ctx, core, prompt, attachments, resumeId, { ...setupOf(ctx, core, where, values, learning), mcp: mcp ?? undefined, recall })
    } finally {
      await mcp?.close()
      await recall?.shutdown() // the finished turns still queued for the provider go out first (bounded)
    }
  }
}

type ChatValues = { yes?: boolean; json?: boolean; incognito?: boolean }

async function failBeforeChat(ctx: CliContext, core: CairnCore, learning: CliLearning, error: unknown): Promise<number> {
  await learning.host.close()
  ctx.io.err(`cairn: ${openFailureWords(core, error)}\n`)
  return 1
}

function setupOf(ctx: CliContext, core: CairnCore, where: ReturnType<typeof chatWorkspace>, values: ChatValues, learning: CliLearning): ChatSetup {
  // One turn has no `/output` to ask: a command's output cut on screen is written here whole.
  const outputs = new CommandOutputs(join(core.paths.logsDir, 'last-command-output.txt'), false)
  return { core, env: ctx.env, io: ctx.io, workspace: where.workspace, move: where.move, yes: Boolean(values.yes), json: Boolean(values.json), learning, incognito: Boolean(values.incognito), outputs }
}

async function chatOnce(ctx: CliContext, core: CairnCore, prompt: string, attachments: PreparedAttachment[], resumeId: string | undefined, setup: ChatSetup): Promise<number> {
  const { learning } = setup
  if (!prompt) return runInteractiveChat(setup, resumeId)
  // The same prompt again, after a failure left its conversation unanswered: that one is answered (as the app does).
  const unanswered = resumeId || attachments.length || setup.incognito ? null : core.sessions.findUnanswered(prompt, { workspace: setup.workspace, source: 'cli' })
  let opened
  try {
    opened = openChatSession(setup, unanswered ?? resumeId)
  } catch (error) {
    return failBeforeChat(ctx, core, learning, error)
  }
  const { session } = opened
  const onSigint = () => session.cancel()
  process.once('SIGINT', onSigint)
  const saved = opened.attachments.save(session.id, attachments)
  const turn = unanswered ? session.regenerate() : session.runTurn(prompt, { attachments: saved })
  const summary = await turn.done.finally(() => process.off('SIGINT', onSigint))
  reportUnanswered(setup, session, summary, attachments.length > 0)
  // The command is the conversation's end: turns no review has seen yet are reviewed now (a single
  // new turn is below the minimum; a session continued with --session reaches it). Never an incognito one.
  if (!setup.incognito) learning.loop.endConversation(session.id, 'exit')
  opened.close()
  await learning.finish()
  if (summary.reason === 'failed') return 1
  if (summary.reason === 'cancelled') return 130
  return 0
}
