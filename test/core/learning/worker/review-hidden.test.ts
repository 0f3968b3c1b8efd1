import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { LearningMode } from '../../../../shared/config'
import { ProposalStore } from '../../../../electron/core/ledger/proposals'
import { curationOverview } from '../../../../electron/core/learning/worker/curation-overview'
import { reviewDepsOf, runReview } from '../../../../electron/core/learning/worker/review-runner'
import { setEntryHidden } from '../../../../electron/core/memory/entry-hiding'
import { reviewFixture, type ReviewFixture } from '../../../helpers/review-fixture'

let fx: ReviewFixture
afterEach(async () => {
  await fx.close()
})

const HIDDEN = 'User is grieving their father, who died in October'
const SAID = [
  { role: 'user' as const, content: 'Sorry for the delay, my father died in October and I am still grieving. Anyway, I use pnpm, never npm.' },
  { role: 'assistant' as const, content: 'I am sorry for your loss. Noted: pnpm.' }
]

describe('a review beside an entry the user hid', () => {
  for (const mode of ['auto', 'ask'] as LearningMode[]) {
    it(`never reads it and cannot save it again in other words (learning ${mode})`, async () => {
      fx = await reviewFixture({ config: { learning: { mode } } })
      await fx.core.memory.add('user', HIDDEN, { write: { source: 'user' } })
      setEntryHidden(fx.core, 'user', HIDDEN, true)
      const before = readFileSync(join(fx.home, 'memories', 'USER.md'), 'utf8')
      fx.server.enqueue(
        { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: "User's father died in October; they are grieving" } }] },
        { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'User prefers pnpm over npm' } }] },
        { text: 'Saved the pnpm preference.' }
      )
      await runReview({ deps: reviewDepsOf(fx.core), provider: fx.provider(), job: fx.job({ reviewId: `hidden-${mode}`, messages: SAID }), maxIterations: 6, allowSkillCreation: false })

      const requests = fx.server.chatRequests()
      // What the review was shown of memory (its brief) leaves the entry out.
      expect(JSON.stringify(requests[0].body.messages)).not.toContain('grieving their father')
      const results = (requests[1].body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'tool')
      expect(results[0].content).toMatch(/asked Cairn not to bring this subject up/)
      expect(results[0].content).not.toContain('grieving their father')
      const proposed = new ProposalStore(fx.core.db).list({ states: ['pending'] })
      expect(proposed.some((proposal) => JSON.stringify(proposal).includes('father'))).toBe(false)
      if (mode === 'auto') expect(readFileSync(join(fx.home, 'memories', 'USER.md'), 'utf8')).toBe(`${before}\n§\nUser prefers pnpm over npm`)
      else expect(proposed).toHaveLength(1)
    })
  }

  it('is not in the curator\'s overview, so curation never merges or retires it', async () => {
    fx = await reviewFixture()
    await fx.core.memory.add('user', HIDDEN, { write: { source: 'user' } })
    await fx.core.memory.add('user', 'User prefers pnpm over npm', { write: { source: 'user' } })
    setEntryHidden(fx.core, 'user', HIDDEN, true)
    expect(curationOverview(fx.core).memoryEntries.user).toEqual(['User prefers pnpm over npm'])
  })
})
