import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ReviewEvent } from '../../shared/review-protocol'
import { ProposalStore } from '../../electron/core/ledger/proposals'
import { reviewFixture, type ReviewFixture } from '../helpers/review-fixture'

let fx: ReviewFixture | null = null
afterEach(async () => {
  await fx?.close()
  fx = null
})

function finishedOf(events: ReviewEvent[]): Extract<ReviewEvent, { type: 'review_finished' }> {
  const finished = events.find((event) => event.type === 'review_finished')
  if (!finished || finished.type !== 'review_finished') throw new Error(`the review did not finish: ${JSON.stringify(events.at(-1))}`)
  return finished
}

const SKILL = (step: string) => ['---', 'name: deploy', 'description: Deploy the site.', '---', '# Deploy', '', step, ''].join('\n')

describe('the review worker under each learning mode (read from config.json when the review starts)', () => {
  it('ask: the worker proposes instead of writing, and the run records what it proposed', async () => {
    fx = await reviewFixture({ config: { learning: { mode: 'ask' } } })
    fx.server.enqueue(
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'User prefers pnpm over npm' } }] },
      { text: 'Proposed the pnpm preference.' }
    )
    const { host, events } = fx.host()
    const reviewId = host.enqueue({ sessionId: null, kinds: ['memory'], reasons: [{ code: 'requested' }], messages: fx.job().messages, skillsUsed: [] })
    expect(await host.wait(reviewId)).toBe('done')

    expect(existsSync(join(fx.home, 'memories', 'USER.md'))).toBe(false)
    expect(fx.core.ledger.list()).toEqual([])
    const proposals = new ProposalStore(fx.core.db).list()
    expect(proposals).toMatchObject([{ kind: 'memory.add', after: 'User prefers pnpm over npm', reviewId, state: 'pending', cause: 'ask_mode' }])
    const { outcome } = finishedOf(events)
    expect(outcome).toMatchObject({ proposals: [proposals[0].id], summary: { saved: false, proposed: 1 } })
    expect(host.runs.get(reviewId)).toMatchObject({ status: 'done', summary: { saved: false, proposed: 1 } })
    expect(readdirSync(join(fx.home, 'tmp'))).toEqual([])
  })

  it("auto: a patch of the user's hand-written skill becomes a proposal (the file is byte-identical); the rest applies", async () => {
    fx = await reviewFixture()
    const dir = join(fx.home, 'skills', 'deploy')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'SKILL.md'), SKILL('1. Copy with rsync.'))
    const original = readFileSync(join(dir, 'SKILL.md'))
    fx.server.enqueue(
      { toolCalls: [{ name: 'skill_view', arguments: { name: 'deploy' } }] },
      {
        toolCalls: [
          { name: 'skill_manage', arguments: { action: 'patch', name: 'deploy', old_string: '1. Copy with rsync.', new_string: '1. Copy with `rsync -a --delete`.' } },
          { name: 'memory', arguments: { action: 'add', target: 'memory', content: 'The site deploys to /srv/www' } }
        ]
      },
      { text: 'Fixed the rsync step and noted the target.' }
    )
    const { host, events } = fx.host()
    const reviewId = host.enqueue({ sessionId: null, kinds: ['memory', 'skills'], reasons: [{ code: 'requested' }], messages: fx.job().messages, skillsUsed: [] })
    expect(await host.wait(reviewId)).toBe('done')

    expect(readFileSync(join(dir, 'SKILL.md')).equals(original)).toBe(true)
    expect(fx.core.memory.read('memory').entries).toEqual(['The site deploys to /srv/www'])
    const [proposal] = new ProposalStore(fx.core.db).list()
    expect(proposal).toMatchObject({ kind: 'skill.patch', target: 'skills/deploy/SKILL.md', cause: 'user_skill', after: SKILL('1. Copy with `rsync -a --delete`.') })
    expect(finishedOf(events).outcome).toMatchObject({ proposals: [proposal.id], summary: { saved: true, proposed: 1 } })
  })
})
