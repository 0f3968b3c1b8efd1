import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startScriptedServer, type RecordedChatRequest, type ScriptedReply, type ScriptedServer } from '../scripted-provider'
import { isReviewRequest } from '../helpers/review-fixture'
import { runCairn } from '../helpers/run-cli'

let home: string
let server: ScriptedServer
let chat: ScriptedReply[]
let review: ScriptedReply[]
/** While set, review requests are held (unanswered) until it resolves. */
let reviewGate: Promise<void> | undefined

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-cli-review-'))
  chat = []
  review = []
  reviewGate = undefined
  server = await startScriptedServer({
    strict: true,
    respond: async (req: RecordedChatRequest) => {
      if (!isReviewRequest(req)) return chat.shift()
      await reviewGate
      return review.shift()
    }
  })
})
afterEach(async () => {
  await server.close()
})

const env = () => ({ CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-test' })
const cairn = (...args: string[]) => runCairn(['--home', home, ...args], { env: env(), cwd: home })
const saveTea: ScriptedReply[] = [
  { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'Prefers green tea.' } }] },
  { text: 'Saved that you prefer green tea.' }
]

/** What review_runs holds: each run's status and what it saved (stored as JSON data, not words). */
function reviewRuns(): Array<{ status: string; summary: unknown }> {
  const db = new Database(join(home, 'state.db'), { readonly: true })
  try {
    const rows = db.prepare('SELECT status, summary FROM review_runs ORDER BY queued_at').all() as Array<{ status: string; summary: string | null }>
    return rows.map((row) => ({ status: row.status, summary: row.summary === null ? null : JSON.parse(row.summary) }))
  } finally {
    db.close()
  }
}

const none = { added: 0, replaced: 0, removed: 0 }
const profileSaved = { saved: true, memory: none, user: { added: 1, replaced: 0, removed: 0 }, skills: [], remembered: [{ store: 'user', text: 'Prefers green tea.' }] }
const nothingSaved = { saved: false, memory: none, user: none, skills: [] }

describe('learning from the CLI', () => {
  it('chat --wait waits for the review the turn started and prints what it learned', async () => {
    chat.push({ text: 'Noted, green tea it is.' })
    review.push(...saveTea)
    const run = await cairn('chat', 'I prefer green tea over coffee.', '--wait')
    expect(run.code).toBe(0)
    expect(run.stdout).toBe('Noted, green tea it is.\n')
    expect(run.stderr).toMatch(/reviewing the conversation.*the user stated a preference/)
    expect(run.stderr).toMatch(/💾 User profile updated\n {3}Remembered: Prefers green tea\.\n/)
    expect(readFileSync(join(home, 'memories', 'USER.md'), 'utf8')).toBe('Prefers green tea.')
    const timeline = JSON.parse((await cairn('timeline', '--json')).stdout)
    expect(timeline[0]).toMatchObject({ kind: 'memory.add', source: 'review' })
  })

  it('chat --wait prints what it learned, and why it looked, in the language of ui.language', async () => {
    writeFileSync(join(home, 'config.json'), JSON.stringify({ ui: { language: 'zh-CN' } }))
    chat.push({ text: 'Noted.' })
    review.push(...saveTea)
    const run = await cairn('chat', 'I prefer green tea over coffee.', '--wait')
    expect(run.code).toBe(0)
    expect(run.stderr).toMatch(/正在回顾这段对话以从中学习（用户表达了偏好）/)
    expect(run.stderr).toMatch(/💾 用户资料已更新\n {3}记住了：Prefers green tea\.\n/)
    expect(run.stderr).not.toMatch(/User profile updated|the user stated a preference/)
  })

  it('chat without --wait exits after the answer; the review finishes in the background', async () => {
    chat.push({ text: 'Noted.' })
    review.push(...saveTea)
    const run = await cairn('chat', 'I prefer green tea over coffee.')
    expect(run.code).toBe(0)
    expect(run.stderr).toMatch(/Learning from this conversation in the background/)
    const deadline = Date.now() + 20_000
    while (Date.now() < deadline && reviewRuns()[0]?.status !== 'done') await new Promise((r) => setTimeout(r, 200))
    expect(reviewRuns()).toEqual([{ status: 'done', summary: profileSaved }])
    expect(readFileSync(join(home, 'memories', 'USER.md'), 'utf8')).toBe('Prefers green tea.')
  })

  it('chat without --wait does not wait for a slow review: it exits cleanly and the worker records the review later', async () => {
    chat.push({ text: 'Noted.' })
    review.push(...saveTea)
    // The review's model call gets no answer until the CLI has exited, so a CLI that waited for it would
    // never exit; the fallback release (a bound on failure only) turns that into a clear assertion failure.
    let release!: () => void
    reviewGate = new Promise((resolve) => (release = resolve))
    const fallback = setTimeout(() => release(), 20_000)
    const run = await cairn('chat', 'I prefer green tea over coffee.')
    clearTimeout(fallback)
    expect(run.code).toBe(0)
    expect(run.stderr).toMatch(/Learning from this conversation in the background/)
    expect(run.stderr).not.toMatch(/bookkeeping failed|database connection is not open/)
    // The CLI is gone while its review still runs in the detached worker…
    expect(reviewRuns()).toEqual([{ status: 'running', summary: null }])
    release()
    // …which finishes it and records it on its own.
    const deadline = Date.now() + 30_000
    while (Date.now() < deadline && reviewRuns()[0]?.status === 'running') await new Promise((r) => setTimeout(r, 200))
    expect(reviewRuns()).toEqual([{ status: 'done', summary: profileSaved }])
    expect(readFileSync(join(home, 'memories', 'USER.md'), 'utf8')).toBe('Prefers green tea.')
  }, 60_000)

  it('a plain question is not reviewed', async () => {
    chat.push({ text: 'Paris.' })
    const run = await cairn('chat', 'What is the capital of France?', '--wait')
    expect(run.code).toBe(0)
    expect(run.stderr).not.toMatch(/reviewing/)
    expect(reviewRuns()).toEqual([])
  })

  it('review --wait reviews the latest session on request', async () => {
    chat.push({ text: 'Paris.' })
    await cairn('chat', 'What is the capital of France?')
    review.push({ text: 'Nothing to save.' })
    const run = await cairn('review', '--wait')
    expect(run.code).toBe(0)
    expect(run.stderr).toMatch(/requested by the user/)
    expect(run.stderr).toMatch(/💾 Nothing worth keeping\./)
    expect(reviewRuns().at(-1)).toEqual({ status: 'done', summary: nothingSaved })
  })

  it('a chat continued with --session is reviewed when the command ends with enough turns no review has seen', async () => {
    chat.push({ text: 'Renamed 12 photos.' }, { text: 'Done: they use the EXIF date now.' })
    review.push(
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'Names photos by their EXIF date.' } }] },
      { text: 'Saved.' }
    )
    const first = await cairn('chat', 'Rename the photos in this folder by date.', '--wait')
    expect(first.stderr).not.toMatch(/reviewing/) // one turn: below learning.sessionEndMinTurns
    const sessionId = /session: (\S+)/.exec(first.stderr)![1]
    const second = await cairn('chat', '--session', sessionId, 'Use the EXIF date, not the file date.', '--wait')
    expect(second.code).toBe(0)
    expect(second.stderr).toMatch(/reviewing the conversation to learn from it \(the chat ended \(2 turns not reviewed yet\)\)/)
    expect(second.stderr).toMatch(/Remembered: Names photos by their EXIF date\./)
    // Reviewed through its end: exiting again after one more turn has too few new turns.
    chat.push({ text: 'Sure.' })
    const third = await cairn('chat', '--session', sessionId, 'Thanks!', '--wait')
    expect(third.stderr).not.toMatch(/reviewing/)
    expect(reviewRuns()).toHaveLength(1)
  })

  it('review says clearly when there is nothing to review', async () => {
    const run = await cairn('review', '--wait')
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/no conversations to review yet/)
  })
})
