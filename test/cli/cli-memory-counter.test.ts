import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startScriptedServer, type RecordedChatRequest, type ScriptedServer } from '../scripted-provider'
import { isReviewRequest, reviewUserText } from '../helpers/review-fixture'
import { runCairn } from '../helpers/run-cli'

/** Several processes count user turns into one data home's memory counter: none is lost or counted twice. */

let home: string
let server: ScriptedServer

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-cli-counter-'))
  writeFileSync(join(home, 'config.json'), JSON.stringify({ learning: { memoryNudgeInterval: 3 } }))
  server = await startScriptedServer({
    strict: true,
    respond: (request: RecordedChatRequest) => (isReviewRequest(request) ? { text: 'Nothing to save.' } : { text: 'Noted.' })
  })
})
afterEach(async () => {
  await server.close()
})

const env = () => ({ CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-test' })

function memoryCounter(): { turns: number; reviews: Array<{ reasons: string }> } {
  const db = new Database(join(home, 'state.db'), { readonly: true })
  try {
    const row = db.prepare("SELECT value FROM learning_state WHERE key = 'memory.turnsSinceWrite'").get() as { value: string } | undefined
    const reviews = db.prepare('SELECT reasons FROM review_runs').all() as Array<{ reasons: string }>
    return { turns: row ? Number(JSON.parse(row.value)) : 0, reviews }
  } finally {
    db.close()
  }
}

describe('the memory counter across processes', () => {
  it('six one-turn CLI chats at once, three at a time, start exactly two memory reviews', async () => {
    const facts = ['The NAS is called attic.', 'Backups run at 02:00.', 'The printer is on the second floor.', 'Our VPN is WireGuard.', 'The wiki runs on Outline.', 'Invoices go to finance@example.org.']
    for (const batch of [facts.slice(0, 3), facts.slice(3)]) {
      const runs = await Promise.all(batch.map((fact) => runCairn(['--home', home, 'chat', fact, '--wait'], { env: env(), cwd: home })))
      expect(runs.map((run) => run.code)).toEqual([0, 0, 0])
    }
    const { turns, reviews } = memoryCounter()
    expect(turns).toBe(0)
    expect(reviews.map((review) => JSON.parse(review.reasons))).toEqual([[{ code: 'memory_interval', count: 3 }], [{ code: 'memory_interval', count: 3 }]])
    // Between them the two reviews read every fact, each once.
    const read = server.chatRequests().filter(isReviewRequest).map(reviewUserText).join('\n')
    // Each user turn is headed with the review's own mark (review-prompts.ts), which text cannot imitate.
    for (const fact of facts) expect(read.match(new RegExp(`\\[\\[user ⟨[0-9a-f]{6}⟩\\]\\]\\n${fact}`, 'g'))?.length ?? 0).toBe(1)
  }, 60_000)
})
