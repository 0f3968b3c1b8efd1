import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { SessionStore, searchSessions } from '../../../electron/core/sessions'
import { planSearch } from '../../../electron/core/sessions/fts-query'
import { planWords, RANK_BUDGET, SLICE_BUDGET, STOP_MIN_SESSIONS } from '../../../electron/core/sessions/query-planner'
import { DOCUMENT_COUNT_CAP, forgetTermStats, termStats } from '../../../electron/core/sessions/term-stats'

let dir: string
let db: StateDb
let store: SessionStore

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-rank-'))
  db = openStateDb(join(dir, 'state.db'))
  store = new SessionStore(db)
})

afterEach(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

function session(id: string, messages: string[]): void {
  store.create({ id, title: id })
  store.appendMany(
    id,
    messages.map((content, i) => ({ role: i % 2 ? ('assistant' as const) : ('user' as const), content }))
  )
}

/** A varied history: `count` everyday chats in which "set" and "up" are as common as in real talk. */
function everydayChats(count: number): void {
  const topics = ['groceries', 'holiday', 'birthday', 'garden', 'budget', 'laptop', 'printer', 'meeting']
  for (let i = 0; i < count; i++) {
    const topic = topics[i % topics.length]
    session(`chat-${i}`, [
      `Can you help me set up the ${topic} list for this week?`,
      `Sure, I set up a ${topic} list; pick it up whenever you like.`,
      `Thanks, that sounds fine.`,
      `Anything else about the ${topic}?`
    ])
  }
}

describe('ranking by what is distinctive', () => {
  it('finds the pnpm conversation first for "how did we set up node with pnpm", with pnpm highlighted', () => {
    everydayChats(60)
    session('pnpm', ['Node keeps failing to install packages.', 'Switch the workspace to pnpm: run corepack enable, then pnpm install.'])
    const result = searchSessions(db, 'how did we set up node with pnpm', { limit: 5 })
    expect(result.sessions[0].sessionId).toBe('pnpm')
    expect(result.sessions[0].snippet).toContain('>>>pnpm<<<')
    expect(result.sessions[0].snippet).not.toContain('>>>set<<<')
  })

  it('returns no session that matches only stop-word-like terms', () => {
    everydayChats(60)
    session('pnpm', ['Switch the workspace to pnpm.', 'Done.'])
    const ids = searchSessions(db, 'how did we set up node with pnpm', { limit: 10 }).sessions.map((s) => s.sessionId)
    expect(ids).toEqual(['pnpm'])
    // A stop word alone: nothing at all, rather than every chat.
    expect(searchSessions(db, 'the', { limit: 10 }).sessions).toEqual([])
    // Only common words: the rarest of them is still searched (a project's own name can be that
    // common), newest first and bounded, and the others are left out.
    const common = searchSessions(db, 'set up', { limit: 10 })
    expect(common.query).toBe('"set"')
    expect(common.sessions[0].sessionId).toBe('chat-59')
  })

  it('ranks a session matching the rare term above one matching two common words', () => {
    everydayChats(60)
    // Both common words, several times, in a short message: bm25 alone would put this first.
    session('common', ['Holiday list holiday list.', 'Holiday list, again the holiday list.'])
    session('rare', ['We booked the Lisbon flat, a long walk from the centre but quiet.', 'Fine.'])
    const result = searchSessions(db, 'holiday list lisbon', { limit: 10 })
    expect(result.sessions[0].sessionId).toBe('rare')
    expect(result.sessions[0].snippet).toContain('>>>Lisbon<<<')
  })

  it('drops nothing in a small or single-session history, where shares say little', () => {
    session('current', Array.from({ length: 300 }, (_, i) => `terraform plan attempt ${i} failed`))
    expect(termStats(db, ['"terraform"']).sessions).toBeLessThan(STOP_MIN_SESSIONS)
    const plan = planWords(db, planSearch('terraform plan').terms)
    expect(plan.dropped).toEqual([])
    expect(searchSessions(db, 'terraform plan', { includeCurrent: true }).sessions.map((s) => s.sessionId)).toEqual(['current'])
  })
})

describe('query planner', () => {
  it('ranks rare terms by bm25 over the whole history and scores common ones apart', () => {
    // One session with many messages holding "widget" (common) and one old message holding "zircon" (rare).
    session('old', ['The zircon sample came back clean.', 'Noted.'])
    const many = RANK_BUDGET + 200
    for (let s = 0; s < 25; s++) session(`w${s}`, Array.from({ length: Math.ceil(many / 25) }, (_, i) => `widget note ${s}-${i}`))
    // Enough other talk that "widget" is common but not stop-word-like (under STOP_SHARE of messages).
    for (let s = 0; s < 25; s++) session(`o${s}`, Array.from({ length: Math.ceil((many * 5) / 25) }, (_, i) => `other talk ${s}-${i}`))
    forgetTermStats(db)
    const plan = planWords(db, planSearch('zircon widget').terms)
    expect(plan.ranked).toBe('"zircon"')
    expect(plan.common?.terms.map((t) => t.expression)).toEqual(['"widget"'])
    // Its postings fit SLICE_BUDGET, so the "newest messages" are the whole history here.
    expect(plan.common?.fromId).toBe(0)
    expect(plan.distinctive).toBe('"zircon"')
    // The old rare hit is still found, and first: it holds what is distinctive.
    expect(searchSessions(db, 'zircon widget').sessions[0].sessionId).toBe('old')
  })

  it('in a large history, reads a common term from the newest messages only, and still finds an old rare one', () => {
    session('old', ['The zircon sample came back clean.', 'Noted.'])
    // SLICE_BUDGET is exceeded by "widget" alone, which stays under STOP_SHARE of all messages.
    const widgets = SLICE_BUDGET + 1000
    const perSession = 250
    for (let s = 0; s * perSession < widgets; s++) {
      session(`w${s}`, Array.from({ length: perSession }, (_, i) => `widget note ${i}`))
      for (let o = 0; o < 5; o++) session(`o${s}-${o}`, Array.from({ length: perSession }, (_, i) => `other talk ${i}`))
    }
    forgetTermStats(db)
    const plan = planWords(db, planSearch('zircon widget').terms)
    expect(plan.common?.fromId).toBeGreaterThan(0)
    // The rare term over the whole history first, then the newest sessions about the common one.
    expect(searchSessions(db, 'zircon widget', { limit: 3 }).sessions.map((s) => s.sessionId)).toEqual(['old', 'w23', 'w22'])
  })

  it('counts a term exactly below the cap and estimates it from the newest messages above', () => {
    session('a', ['alpha beta', 'alpha gamma'])
    expect(termStats(db, ['"alpha"', '"gamma"', '"missing"']).documents).toEqual(
      new Map([
        ['"alpha"', 2],
        ['"gamma"', 1],
        ['"missing"', 0]
      ])
    )
    expect(DOCUMENT_COUNT_CAP).toBeGreaterThan(RANK_BUDGET)
  })

  it('finds a word the moment it first appears, though it was searched for (and missing) just before', () => {
    everydayChats(60)
    expect(searchSessions(db, 'zebra').sessions).toEqual([])
    session('zoo', ['We saw a zebra at the zoo.', 'Nice.'])
    expect(searchSessions(db, 'zebra').sessions.map((s) => s.sessionId)).toEqual(['zoo'])
  })

  it('refreshes counts once the history has grown', () => {
    session('a', ['alpha'])
    expect(termStats(db, ['"alpha"']).documents.get('"alpha"')).toBe(1)
    session('b', Array.from({ length: 60 }, () => 'alpha again'))
    expect(termStats(db, ['"alpha"']).documents.get('"alpha"')).toBe(61)
  })
})

