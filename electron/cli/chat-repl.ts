import { createInterface } from 'node:readline/promises'
import type { AgentSession } from '../core/agent/agent-session'
import { dropIfUnanswered, openChatSession, type ChatSetup } from './chat-session'

const HELP = `Type a message and press Enter. Commands:
  /help   this list
  /new    start a new conversation (the one before is reviewed for learning)
  /exit   leave (so does Ctrl+D)
Ctrl+C stops a running answer.
`

/**
 * `cairn chat` without a prompt: one conversation after another on the terminal (or piped lines, read
 * in order). Input stays one reader, so approvals are asked through the same prompt.
 */
export async function runInteractiveChat(base: ChatSetup, resumeId: string | undefined): Promise<number> {
  const { io, learning } = base
  const terminal = Boolean(process.stdin.isTTY)
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal, historySize: 200 })
  const setup: ChatSetup = { ...base, ask: (question) => rl.question(question) }
  rl.setPrompt('› ')

  // Asserted, not annotated: set inside `play`, which TypeScript's narrowing does not follow.
  let session = null as AgentSession | null
  let sessionId = resumeId
  let running = null as AgentSession | null
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
    next()
  })
  const interrupt = () => {
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
        session = openChatSession(setup, sessionId)
      } catch (error) {
        io.err(`cairn: ${(error as Error).message}\n`)
        return
      }
    }
    const resumed = sessionId === session.id
    running = session
    const summary = await session.runTurn(text).done.finally(() => (running = null))
    if (!resumed && dropIfUnanswered(setup, session, summary)) session = null
    else sessionId = session.id
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
      if (line === '/help') io.err(HELP)
      else if (line === '/new') {
        if (session) learning.loop.endConversation(session.id, 'new_conversation')
        session = null
        sessionId = undefined
        io.err('New conversation.\n')
      } else if (line.startsWith('/')) io.err(`cairn: unknown command ${line.split(/\s/)[0]}. /help lists them.\n`)
      else await play(line)
    }
  } finally {
    process.off('SIGINT', interrupt)
    rl.close()
  }
  if (session) learning.loop.endConversation(session.id, 'exit')
  await learning.finish()
  return 0
}
