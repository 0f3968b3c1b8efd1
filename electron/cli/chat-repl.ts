import { createInterface } from 'node:readline/promises'
import type { AgentSession } from '../core/agent/agent-session'
import { CommandOutputs } from './command-output'
import { openChatSession, openFailureWords, type ChatSetup, type OpenedChat } from './chat-session'
import { isSavedPrompt, savedPromptText } from './repl-prompts'
import { conversationModel, HISTORY_SIZE, inboxSummary, modelNameProblem, modelReport, PromptHistory, REPL_HELP, unlistedModel } from './repl-commands'

/**
 * `cairn chat` without a prompt: one conversation after another on the terminal (or piped lines, read
 * in order). Input stays one reader, so approvals are asked through the same prompt.
 */
export async function runInteractiveChat(base: ChatSetup, resumeId: string | undefined): Promise<number> {
  const { core, env, io, learning } = base
  const terminal = Boolean(process.stdin.isTTY)
  // Only typed prompts are history: piped lines were never typed, and ↑ has nobody to serve. Incognito prompts are never written down.
  const history = terminal && !base.incognito ? new PromptHistory(core.paths.root) : null
  const rl = createInterface({
    input: process.stdin,
    output: process.stderr,
    terminal,
    history: history?.load() ?? [],
    historySize: HISTORY_SIZE,
    removeHistoryDuplicates: true
  })
  // readline's own history list (newest first), as its 'history' event last gave it.
  let recalled: string[] = []
  let historyWarned = false
  const keepHistory = () => {
    const problem = history?.save(recalled)
    if (problem && !historyWarned) io.err(`cairn: could not keep the prompt history in ${history?.file}: ${problem}\n`)
    historyWarned ||= Boolean(problem)
  }
  rl.on('history', (lines: string[]) => {
    recalled = lines
    keepHistory()
  })
  // The question waiting for an answer (an approval): Ctrl+C or the end of input answers it with null (no).
  let asking: AbortController | null = null
  const ask = async (question: string) => {
    asking = new AbortController()
    let answer: string
    try {
      answer = await rl.question(question, { signal: asking.signal })
    } catch {
      return null
    } finally {
      asking = null
    }
    // An approval's "y" is no prompt to come back to with ↑ (readline listed it before answering).
    if (answer.trim() && recalled[0] === answer) {
      recalled.shift()
      keepHistory()
    }
    return answer
  }
  const setup: ChatSetup = { ...base, ask, outputs: new CommandOutputs(null, true) }
  rl.setPrompt('› ')

  // Asserted, not annotated: set inside `play`, which TypeScript's narrowing does not follow.
  let session = null as AgentSession | null
  let opened = null as OpenedChat | null
  let sessionId = resumeId
  let running = null as AgentSession | null
  // `/model NAME` before the conversation's first turn: stored with it once it opens.
  let chosenModel = null as string | null
  const lines: string[] = []
  let closed = false
  let wake: (() => void) | null = null
  const next = () => {
    wake?.()
    wake = null
  }
  rl.on('line', (line) => {
    lines.push(line)
    next()
  })
  // Ctrl+D (or the end of piped input): what was typed before it still runs, then the session ends.
  rl.on('close', () => {
    closed = true
    asking?.abort()
    next()
  })
  const interrupt = () => {
    if (asking) return asking.abort()
    if (running) return running.cancel()
    if (!terminal) return rl.close()
    io.err('\n(To leave, press Ctrl+D or type /exit.)\n')
    rl.prompt()
  }
  rl.on('SIGINT', interrupt)
  process.on('SIGINT', interrupt)

  const play = async (text: string) => {
    if (!session) {
      try {
        opened = openChatSession(setup, sessionId)
        session = opened.session
        if (chosenModel) opened.sessions.update(session.id, { model: chosenModel })
        chosenModel = null
      } catch (error) {
        io.err(`cairn: ${openFailureWords(core, error)}\n`)
        return
      }
    }
    running = session
    // A failed first turn keeps its conversation, as the app does: the next line goes on in it.
    await session.runTurn(text).done.finally(() => (running = null))
    sessionId = session.id
  }

  const chooseModel = (name: string, id: string | undefined) => {
    const problem = modelNameProblem(name)
    if (problem) return io.err(`cairn: ${problem}\n`)
    if (id) (opened?.sessions ?? core.sessions).update(id, { model: name })
    else chosenModel = name
    const unlisted = unlistedModel(core, env, name) ? ' (it is not in the list the provider gave; /model shows it)' : ''
    io.err(`This conversation answers with ${name} from its next turn${unlisted}.\n`)
  }

  io.err('Cairn interactive chat. /help lists the commands.\n')
  try {
    for (;;) {
      // Piped lines get no prompt: it would only clutter what is captured.
      if (!closed && terminal) rl.prompt()
      while (lines.length === 0 && !closed) await new Promise<void>((resolve) => (wake = resolve))
      const line = lines.shift()?.trim()
      if (line === undefined) break
      if (!line) continue
      if (line === '/exit' || line === '/quit') break
      const [command, ...words] = line.split(/\s+/)
      if (command === '/help') io.err(REPL_HELP)
      else if (command === '/new') {
        if (session && !base.incognito) learning.loop.endConversation(session.id, 'new_conversation')
        opened?.close()
        opened = null
        session = null
        sessionId = undefined
        chosenModel = null
        io.err('New conversation.\n')
      } else if (command === '/inbox') io.err(inboxSummary(core))
      else if (command === '/output') io.out(setup.outputs.whole())
      else if (command === '/model') {
        const id = session?.id ?? sessionId
        if (words.length === 0) io.err(await modelReport(core, env, conversationModel(core, env, id, chosenModel)))
        else chooseModel(words.join(' '), id)
      } else if (command === '/p' || isSavedPrompt(core.paths.root, command)) {
        // A saved prompt: its variables are asked for on the lines that follow, then it is sent.
        const answer = async (question: string) => (lines.length ? (io.err(question), lines.shift()!) : closed ? null : ask(question))
        const text = await savedPromptText(core.paths.root, command === '/p' ? words[0] : command.slice(1), { err: (text) => io.err(text), answer }, core.config.get().ui.language)
        if (text?.trim()) await play(text)
      } else if (line.startsWith('/')) io.err(`cairn: unknown command ${line.split(/\s/)[0]}. /help lists them.\n`)
      else await play(line)
    }
  } finally {
    process.off('SIGINT', interrupt)
    rl.close()
  }
  if (session && !base.incognito) learning.loop.endConversation(session.id, 'exit')
  opened?.close()
  await learning.finish()
  return 0
}
