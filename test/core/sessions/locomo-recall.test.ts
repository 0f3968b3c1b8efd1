import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { runLocomo, summarise } from '../../bench/locomo'
import { loadLocomo, locomoPath, turnLine, type LocomoConversation } from '../../bench/locomo-data'
import { haveSharedData } from '../../helpers/shared-data'

/**
 * Recall regression on two LoCoMo conversations: Cairn's real path (SessionStore + searchSessions)
 * must stay at or above the plain FTS5 floor computed, exactly as ../shared/data/README.md
 * prescribes, on the same questions. The full benchmark is `npx tsx test/bench/locomo.ts`.
 */

const floorStopWords = new Set(
  `a an the of to in on at for and or is are was were be been do does did what when where who whom which why how her his
  their its it he she they i you we me my your our with by from as that this these those has have had will would can could
  should about after before into than then there`.split(/\s+/)
)

function floorAt5(conversations: LocomoConversation[]): { any5: number; all5: number } {
  let any = 0
  let all = 0
  let n = 0
  for (const conversation of conversations) {
    const db = new Database(':memory:')
    db.exec("CREATE VIRTUAL TABLE s USING fts5(sess UNINDEXED, body, tokenize='porter unicode61')")
    const insert = db.prepare('INSERT INTO s VALUES (?, ?)')
    for (const session of conversation.sessions) {
      insert.run(session.number, `${session.dateTime}\n${session.turns.map(turnLine).join('\n')}`)
    }
    const top5 = db.prepare('SELECT sess FROM s WHERE s MATCH ? ORDER BY bm25(s) LIMIT 5')
    for (const question of conversation.questions) {
      n++
      const tokens = (question.question.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((t) => !floorStopWords.has(t))
      const expression = [...new Set(tokens)].map((t) => `"${t}"`).join(' OR ')
      if (!expression) continue
      const top = (top5.all(expression) as Array<{ sess: number }>).map((r) => r.sess)
      if (question.goldSessions.some((g) => top.includes(g))) any++
      if (question.goldSessions.every((g) => top.includes(g))) all++
    }
    db.close()
  }
  return { any5: any / n, all5: all / n }
}

describe.skipIf(!haveSharedData(locomoPath, 'the LoCoMo recall test'))('LoCoMo recall (conv-41, conv-42)', () => {
  it('matches or beats the plain FTS5 floor on session any@5 and all@5', () => {
    const subset = loadLocomo().filter((c) => c.sampleId === 'conv-41' || c.sampleId === 'conv-42')
    expect(subset.map((c) => c.questions.length)).toEqual([193, 260])
    const floor = floorAt5(subset)
    const ours = summarise(runLocomo(subset))
    expect(ours.n).toBe(453)
    expect(ours.any['@5']).toBeGreaterThanOrEqual(Math.round(floor.any5 * 1000) / 1000)
    expect(ours.all['@5']).toBeGreaterThanOrEqual(Math.round(floor.all5 * 1000) / 1000)
    // Finding the right session first matters too: it is what a limit-3 tool call shows.
    expect(ours.any['@3']).toBeGreaterThan(0.85)
  })
})
