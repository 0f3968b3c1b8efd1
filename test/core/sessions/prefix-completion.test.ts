import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { SessionStore, createSessionSearchTool, searchSessions } from '../../../electron/core/sessions'
import { completePrefix, forgetVocabulary, HEAVY_TERM_DOCUMENTS, PREFIX_COMPLETIONS, unfinishedWord, VOCAB_SCAN_TERMS } from '../../../electron/core/sessions/prefix-completion'
import { newTurnState, type ToolContext } from '../../../electron/core/tools/types'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'

let dir: string
let db: StateDb
let store: SessionStore

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-prefix-'))
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

/** A varied history of everyday chats, none about package managers. */
function everydayChats(count: number): void {
  const topics = ['groceries', 'holiday', 'birthday', 'garden', 'budget', 'laptop', 'printer', 'meeting']
  for (let i = 0; i < count; i++) {
    const topic = topics[i % topics.length]
    session(`chat-${i}`, [`Can you help me set up the ${topic} list for this week?`, `Sure, I set up a ${topic} list.`])
  }
}

const typing = { limit: 5, includeCurrent: true, prefixLastWord: true }

describe('search as you type', () => {
  it('typing "pnp" finds the pnpm conversation and marks pnpm in its snippet', () => {
    everydayChats(40)
    session('pnpm', ['Node keeps failing to install packages.', 'Switch the workspace to pnpm: run corepack enable, then pnpm install.'])
    expect(searchSessions(db, 'pnp', { limit: 5 }).sessions).toEqual([])

    const typed = searchSessions(db, 'pnp', typing)
    expect(typed.sessions.map((s) => s.sessionId)).toEqual(['pnpm'])
    expect(typed.sessions[0].snippet).toContain('>>>pnpm<<<')
    expect(typed.query).toContain('"pnpm"')

    const midQuestion = searchSessions(db, 'how did we set up node with pnp', typing)
    expect(midQuestion.sessions[0].sessionId).toBe('pnpm')
    expect(midQuestion.sessions[0].snippet).toContain('>>>pnpm<<<')
  })

  it('completes only the last word, and only while nothing follows it', () => {
    session('pnpm', ['Switch the workspace to pnpm.', 'Done.'])
    // A space after the word says it is finished: "pnp" is then searched as typed.
    expect(searchSessions(db, 'pnp ', typing).sessions).toEqual([])
    expect(searchSessions(db, 'pnp workspace', typing).query).not.toContain('"pnpm"')
    expect(unfinishedWord('set up node with pnp')).toBe('pnp')
    expect(unfinishedWord('pn')).toBeNull()
    expect(unfinishedWord('my-app.con')).toBeNull()
    expect(unfinishedWord('"connection poo')).toBeNull()
    expect(unfinishedWord('ask about the')).toBeNull()
    expect(unfinishedWord('数据库迁')).toBeNull()
  })

  it('finds words by their porter stems: "deplo" finds deployed, "configura" finds configuration', () => {
    everydayChats(10)
    session('deploys', ['The site deployed fine on the second try.', 'Good.'])
    session('settings', ['Where does the configuration live?', 'In the settings folder.'])
    expect(searchSessions(db, 'deplo', typing).sessions.map((s) => s.sessionId)).toEqual(['deploys'])
    // configuration is stored as "configur": no stem starts with "configura", a shorter one does.
    expect(searchSessions(db, 'configura', typing).sessions.map((s) => s.sessionId)).toEqual(['settings'])
  })

  it('finds the words behind stems porter would change again: compose (compos), deployment (deploy)', () => {
    everydayChats(10)
    session('compose', ['Write a docker compose file for the app.', 'Here is the compose file.'])
    session('rollout', ['The deployment is stuck.', 'Roll it back.'])
    const compose = searchSessions(db, 'docker compo', typing)
    expect(compose.sessions.map((s) => s.sessionId)).toEqual(['compose'])
    expect(compose.sessions[0].snippet).toContain('>>>compose<<<')
    // "deploy" as typed is the stem of deploy/deployed; deployment's stem is reached through a completion.
    expect(searchSessions(db, 'deploy', typing).sessions.map((s) => s.sessionId)).toEqual(['rollout'])
    expect(searchSessions(db, 'deploy', { limit: 5 }).sessions).toEqual([])
  })

  it('offers the most frequent completions, not stop-word-like ones', () => {
    everydayChats(120)
    session('grapes', ['grapefruit juice', 'grapevine news'])
    session('graphs', ['graph the budget', 'a graph of the graph data'])
    session('more-graphs', ['graph it again', 'one more graph'])
    session('settings', ['the settings page', 'settle it'])
    const corpus = db.prepare('SELECT max(id) FROM messages').pluck().get() as number
    const { completions } = completePrefix(db, 'gra', corpus)
    expect(completions[0]).toEqual({ term: 'graph', documents: 4 })
    expect(completions.map((c) => c.term)).toEqual(expect.arrayContaining(['grapefruit', 'grapevin']))
    // "set" is in nearly every message of this history: it says nothing about which one is meant.
    expect(completePrefix(db, 'set', corpus).completions.map((c) => c.term)).toEqual(['settl'])
  })

  it('reads a bounded part of a prefix that begins thousands of words, and reads on as the user keeps typing it', () => {
    const words = Array.from({ length: 1500 }, (_, i) => `zqx${i.toString(36).padStart(3, '0')}`)
    // The most frequent word sorts last, past what one scan reads.
    session('many', [words.join(' '), 'zqxzzz zqxzzz', 'zqxzzz again', 'and zqxzzz'])
    forgetVocabulary(db)
    const first = completePrefix(db, 'zqx', 10)
    expect(first.scanned).toBeLessThanOrEqual(VOCAB_SCAN_TERMS)
    expect(first.truncated).toBe(true)
    expect(first.completions).toHaveLength(PREFIX_COMPLETIONS)
    expect(first.completions.map((c) => c.term)).not.toContain('zqxzzz')

    const planned = searchSessions(db, 'zqx', typing).query.split(' OR ')
    expect(planned.length).toBeLessThanOrEqual(1 + PREFIX_COMPLETIONS)

    let later = first
    for (let keystroke = 0; keystroke < 20 && later.truncated; keystroke++) {
      later = completePrefix(db, 'zqx', 10)
      expect(later.scanned).toBeLessThanOrEqual(VOCAB_SCAN_TERMS)
    }
    expect(later.truncated).toBe(false)
    expect(later.completions[0]).toEqual({ term: 'zqxzzz', documents: 3 })
    // Once whole, the range is not read again.
    expect(completePrefix(db, 'zqx', 10).scanned).toBe(0)
  })

  it('counts a word in thousands of messages once, then jumps over it and reads only the words around it', () => {
    store.create({ id: 'log', title: 'log' })
    store.appendMany('log', Array.from({ length: HEAVY_TERM_DOCUMENTS + 10 }, (_, i) => ({ role: 'tool' as const, toolCallId: `c${i}`, content: `zqmheavy line ${i}` })))
    session('light', ['zqmaaa once', 'zqmzzz once'])
    const corpus = db.prepare('SELECT max(id) FROM messages').pluck().get() as number
    // In nearly every message, the heavy word is stop-word-like here: not a completion, but still read once.
    const expected = [
      { term: 'zqmaaa', documents: 1 },
      { term: 'zqmzzz', documents: 1 }
    ]
    const first = completePrefix(db, 'zqm', corpus)
    expect(first.scanned).toBe(3)
    expect(first.completions).toEqual(expected)
    const again = completePrefix(db, 'zqm', corpus)
    expect(again.scanned).toBe(2)
    expect(again.completions).toEqual(expected)
  })

  it('leaves Chinese and Japanese searches as they were', () => {
    session('zh', ['数据库迁移失败了', '检查一下迁移脚本'])
    session('ja', ['データベースの移行', '了解です'])
    for (const query of ['数据库迁', '迁移', 'データベー']) {
      expect(searchSessions(db, query, typing)).toEqual(searchSessions(db, query, { ...typing, prefixLastWord: false }))
    }
  })

  it("keeps the agent's session_search on whole words", async () => {
    session('pnpm', ['Switch the workspace to pnpm.', 'Done.'])
    const ctx: ToolContext = { write: { source: 'agent' }, turn: newTurnState() }
    const tool = createSessionSearchTool(db, () => null)
    const result = (await tool.run(tool.schema.parse({ query: 'pnp' }), ctx)) as { sessions?: unknown[] }
    expect(JSON.stringify(result)).not.toContain('pnpm')
  })
})

describe('the sidebar search route', () => {
  let fx: AppFixture | undefined
  afterEach(async () => {
    await fx?.close()
    fx = undefined
  })

  it('completes the word being typed', async () => {
    fx = await appFixture()
    const chat = fx.core.sessions.create({ title: 'Package managers', source: 'desktop' })
    fx.core.sessions.append(chat.id, { role: 'user', content: 'Should this repo use pnpm?' })
    const found = await fx.ok('sessions.search', { query: 'pnp' })
    expect(found.hits.map((h) => h.sessionId)).toEqual([chat.id])
    expect(found.hits[0].snippet).toContain('>>>pnpm<<<')
  })
})
