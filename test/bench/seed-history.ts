/**
 * Big data homes for the long-history benchmark and e2e tests, written fast: whole conversations go
 * through `SessionStore.appendMany` (one transaction each), so 3,000 turns or 10,000 conversations
 * take seconds. The contents are deterministic (a counter, no randomness), so runs compare.
 */
import type { CairnCore } from '../../electron/core/cairn'
import type { NewMessage } from '../../electron/core/sessions/types'

const DAY = 24 * 60 * 60 * 1000
/** Seeded history ends a day before now, so live turns are the newest messages. */
const HISTORY_ENDS_AGO = DAY

const subjects = ['the nginx reverse proxy', 'the Postgres replica', 'the sourdough starter', 'the Lisbon itinerary', 'the CI pipeline', 'the React settings page', 'the backup script', 'the marathon plan']
const verbs = ['check', 'tune', 'rewrite', 'document', 'schedule', 'compare', 'clean up', 'test']

/** Every user message of a seeded conversation says this, numbered: `Question 1234 about …`. */
export function questionText(turn: number): string {
  const subject = subjects[turn % subjects.length]
  const verb = verbs[Math.floor(turn / subjects.length) % verbs.length]
  return `Question ${turn} about ${subject}: how should I ${verb} it this week, and what would you watch out for?`
}

/** The first line of every seeded answer: `Answer 1234.` (what a test waits for). */
export function answerMarker(turn: number): string {
  return `Answer ${turn}.`
}

/** A realistic answer: paragraphs, a list, every third one a code block, every fifth one a table. */
function answerText(turn: number): string {
  const subject = subjects[turn % subjects.length]
  const parts = [
    `${answerMarker(turn)} For ${subject}, start with what changed since last week and keep the **smallest step** that can be undone.`,
    `1. Look at the current state and write it down.\n2. Change one thing, then measure again.\n3. Keep a note of *why* you changed it, so the next person knows.`,
    `The usual trap is doing two changes at once: when the result moves you cannot tell which one did it. A second trap is trusting a single measurement; take three and keep the median.`
  ]
  if (turn % 3 === 0) {
    parts.push('```bash\n' + `# step ${turn}\nset -euo pipefail\nfor host in web-1 web-2 web-3; do\n  ssh "$host" 'sudo systemctl status nginx --no-pager | head -n 5'\ndone\n` + '```')
  }
  if (turn % 5 === 0) parts.push('| step | owner | when |\n|---|---|---|\n| measure | you | Monday |\n| change | you | Tuesday |\n| review | team | Friday |')
  parts.push('If anything looks off, paste the output here and I will go through it with you.')
  return parts.join('\n\n')
}

/** A command's output as the run_command tool stores it (the renderer reads these fields). */
function commandOutput(stdout: string): string {
  return JSON.stringify({ success: true, exit_code: 0, stdout, stderr: '', duration_ms: 412 })
}

/** About 1 MB of log lines: the one huge tool output a long conversation carries. */
export function megabyteOfLog(): string {
  const lines: string[] = []
  for (let line = 0, size = 0; size < 1_000_000; line++) {
    const text = `2026-11-${String((line % 28) + 1).padStart(2, '0')}T10:${String(line % 60).padStart(2, '0')}:00Z web-${line % 3} GET /api/items/${line} 200 ${line % 997}ms`
    lines.push(text)
    size += text.length + 1
  }
  return lines.join('\n')
}

/** The messages of one turn: a question, sometimes a tool call and its output, then the answer. */
function turnMessages(turn: number, at: number, hugeOutput: boolean, remark: string | undefined): NewMessage[] {
  const question = remark ? `${questionText(turn)} ${remark}` : questionText(turn)
  const messages: NewMessage[] = [{ role: 'user', content: question, createdAt: at }]
  if (hugeOutput || turn % 25 === 7) {
    const id = `call_seed_${turn}`
    const command = hugeOutput ? 'cat /var/log/nginx/access.log' : `df -h /srv/${turn}`
    const stdout = hugeOutput ? megabyteOfLog() : `Filesystem Size Used Avail Use% Mounted on\n/dev/sda1 100G ${turn % 90}G ${100 - (turn % 90)}G ${turn % 90}% /srv`
    messages.push({ role: 'assistant', content: '', toolCalls: [{ id, name: 'run_command', arguments: JSON.stringify({ command }) }], createdAt: at + 1 })
    messages.push({ role: 'tool', content: commandOutput(stdout), toolCallId: id, toolName: 'run_command', createdAt: at + 2 })
  }
  messages.push({ role: 'assistant', content: answerText(turn), createdAt: at + 3, promptTokens: 900, completionTokens: 260, finishReason: 'stop' })
  return messages
}

export interface LongConversation {
  sessionId: string
  /** How many user + assistant + tool messages were written. */
  messageCount: number
  /** The id of the user message of each turn (index = turn − 1). */
  questionIds: number[]
}

/**
 * One conversation of `turns` turns, a minute apart, ending a day ago. Turn `hugeOutputTurn`
 * (default: the middle one) carries a 1 MB command output; `remarks` adds words to some questions
 * (something to search for). Written in batches of 500 turns.
 */
export function seedLongConversation(
  core: CairnCore,
  options: { turns: number; title: string; workspace?: string; hugeOutputTurn?: number | null; remarks?: Record<number, string> }
): LongConversation {
  const { turns, title } = options
  const hugeTurn = options.hugeOutputTurn === undefined ? Math.ceil(turns / 2) : options.hugeOutputTurn
  const startedAt = Date.now() - HISTORY_ENDS_AGO - turns * 60_000
  const session = core.sessions.create({ title, source: 'desktop', startedAt, workspace: options.workspace ?? null })
  const questionIds: number[] = []
  let messageCount = 0
  for (let from = 1; from <= turns; from += 500) {
    const batch: NewMessage[] = []
    for (let turn = from; turn < from + 500 && turn <= turns; turn++) batch.push(...turnMessages(turn, startedAt + turn * 60_000, turn === hugeTurn, options.remarks?.[turn]))
    const written = core.sessions.appendMany(session.id, batch)
    for (const message of written) if (message.role === 'user') questionIds.push(message.id)
    messageCount += written.length
  }
  // Named by the user: a live turn must not ask the model for a title.
  core.sessions.setStateKey(session.id, 'titledBy', 'user')
  return { sessionId: session.id, messageCount, questionIds }
}

/** The title of seeded conversation `n` (1 = the newest). */
export function manyTitle(n: number): string {
  return `Conversation ${n}: ${subjects[n % subjects.length]}`
}

/**
 * `count` short conversations (one exchange each) spread over the last `days` days, newest first
 * by number. All in one transaction: 10,000 take a few seconds.
 */
export function seedManyConversations(core: CairnCore, options: { count: number; days?: number }): string[] {
  const { count } = options
  const days = options.days ?? 365
  const now = Date.now() - HISTORY_ENDS_AGO
  const step = (days * DAY) / count
  const ids: string[] = []
  core.db.transaction(() => {
    for (let n = 1; n <= count; n++) {
      const at = Math.round(now - n * step)
      const session = core.sessions.create({ title: manyTitle(n), source: 'desktop', startedAt: at })
      core.sessions.appendMany(session.id, [
        { role: 'user', content: questionText(n), createdAt: at },
        { role: 'assistant', content: `${answerMarker(n)} Start with what changed since last week.`, createdAt: at + 1000, finishReason: 'stop' }
      ])
      core.sessions.setStateKey(session.id, 'titledBy', 'user')
      ids.push(session.id)
    }
  })()
  return ids
}
