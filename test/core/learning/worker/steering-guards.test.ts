import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { LearningMode } from '../../../../shared/config'
import { Inbox } from '../../../../electron/core/learning/host/proposal-apply'
import { reviewDepsOf, runReview } from '../../../../electron/core/learning/worker/review-runner'
import { skillOrigin } from '../../../../electron/core/skills/skill-items'
import { reviewFixture, type ReviewFixture } from '../../../helpers/review-fixture'

/** Ways a review (or a race between two windows) could get around what the user made or pinned. */

let fx: ReviewFixture
afterEach(async () => {
  await fx.close()
})

const setup = async (mode: LearningMode) => (fx = await reviewFixture({ config: { learning: { mode } } }))
const run = (reviewId: string) =>
  runReview({ deps: reviewDepsOf(fx.core), provider: fx.provider(), job: fx.job({ reviewId, sessionId: 'session-1' }), maxIterations: 8, allowSkillCreation: true })
const byUser = { write: { source: 'user' as const } }
const userEntries = () => fx.core.memory.read('user').entries
const pending = () => new Inbox(fx.core).list({ states: ['pending'] })
const SKILL = (step: string, name = 'deploy') => ['---', `name: ${name}`, 'description: Deploy the web app.', '---', '# Deploy', '', '1. Build.', step, ''].join('\n')

async function pinnedTea(): Promise<void> {
  for (const entry of ['User likes tea', 'User likes tea and cake', 'User lives in Oslo']) await fx.core.memory.add('user', entry, byUser)
  fx.core.memoryPins.set('user', 'User likes tea', true)
}

describe('a pinned memory entry under auto', () => {
  it('is not changed by a batch whose earlier operation makes an ambiguous old_text pick it', async () => {
    await setup('auto')
    await pinnedTea()
    const ops = [
      { action: 'remove', old_text: 'and cake' },
      { action: 'replace', old_text: 'likes tea', content: 'User hates tea' }
    ]
    fx.server.enqueue({ toolCalls: [{ name: 'memory', arguments: { target: 'user', operations: ops } }] }, { text: 'Done.' })
    await run('r-batch')
    expect(userEntries()).toEqual(['User likes tea', 'User likes tea and cake', 'User lives in Oslo'])
    expect(pending().map((p) => p.cause)).toEqual(expect.arrayContaining(['pinned_entry']))
  })

  it('is not removed by a second call of the same response once the first removed the other match', async () => {
    await setup('auto')
    await pinnedTea()
    fx.server.enqueue(
      {
        toolCalls: [
          { name: 'memory', arguments: { action: 'remove', target: 'user', old_text: 'and cake' } },
          { name: 'memory', arguments: { action: 'remove', target: 'user', old_text: 'likes tea' } }
        ]
      },
      { text: 'Done.' }
    )
    await run('r-parallel')
    // The first removal applies; the second only ever reaches the staging copy (where it is ambiguous and refused).
    expect(userEntries()).toEqual(['User likes tea', 'User lives in Oslo'])
    expect(pending().filter((p) => p.before === 'User likes tea')).toEqual([])
  })

  it('keeps its pin through a chat replace and the revert of it', async () => {
    await setup('auto')
    await pinnedTea()
    await fx.core.memory.replace('user', 'lives in Oslo', 'User lives in Bergen', { write: { source: 'user' } })
    fx.core.memoryPins.set('user', 'User lives in Bergen', true)
    await fx.core.memory.replace('user', 'Bergen', 'User lives in Trondheim', { write: { source: 'agent' } })
    expect(fx.core.memoryPins.isPinned('user', 'User lives in Trondheim')).toBe(true)
    const row = fx.core.ledger.list().find((entry) => entry.after === 'User lives in Trondheim')!
    expect((await fx.core.revert(row.id)).ok).toBe(true)
    expect(fx.core.memoryPins.isPinned('user', 'User lives in Bergen')).toBe(true)
  })
})

describe("a skill the user owns", () => {
  it('stays the user\'s after they approve a proposed change to it, so the next change asks again', async () => {
    await setup('auto')
    await fx.core.skills.create({ name: 'deploy', category: 'devops', content: SKILL('2. Copy.') }, { source: 'agent' })
    const path = join(fx.home, 'skills', 'devops', 'deploy', 'SKILL.md')
    writeFileSync(path, SKILL('2. Copy.\n3. MY OWN STEP: restart nginx.'))
    fx.core.skills.load()
    const patch = (from: string, to: string) => ({ name: 'skill_manage', arguments: { action: 'patch', name: 'deploy', old_string: from, new_string: to } })
    fx.server.enqueue({ toolCalls: [{ name: 'skill_view', arguments: { name: 'deploy' } }] }, { toolCalls: [patch('1. Build.', '1. Build with `npm run build`.')] }, { text: 'Clarified step 1.' })
    await run('r-1')
    const [first] = pending()
    expect(first.cause).toBe('user_skill')
    expect((await new Inbox(fx.core).approve(first.id)).ok).toBe(true)
    expect(fx.core.ledger.list().find((row) => row.kind === 'skill.patch')?.source).toBe('user')
    expect(skillOrigin(fx.core, fx.core.skills.get('deploy')!)).toBe('user')

    fx.server.enqueue({ toolCalls: [{ name: 'skill_view', arguments: { name: 'deploy' } }] }, { toolCalls: [patch('3. MY OWN STEP: restart nginx.\n', '')] }, { text: 'Removed a step.' })
    await run('r-2')
    expect(readFileSync(path, 'utf8')).toContain('MY OWN STEP')
    expect(pending().map((p) => p.cause)).toEqual(['user_skill'])
  })

  it('gets a proposal that can be approved even when its front matter breaks the strict rules', async () => {
    await setup('auto')
    const dir = join(fx.home, 'skills', 'devops', 'deploy')
    mkdirSync(dir, { recursive: true })
    const path = join(dir, 'SKILL.md')
    writeFileSync(path, SKILL('2. Copy.').replace('name: deploy', 'name: Deploy App'))
    fx.core.skills.load()
    fx.server.enqueue(
      { toolCalls: [{ name: 'skill_view', arguments: { name: 'deploy' } }] },
      { toolCalls: [{ name: 'skill_manage', arguments: { action: 'patch', name: 'deploy', old_string: '2. Copy.', new_string: '2. Copy with rsync -a.' } }] },
      { text: 'Fixed the copy step.' }
    )
    await run('r-lenient')
    const [proposal] = pending()
    const decision = await new Inbox(fx.core).approve(proposal.id)
    expect(decision).toMatchObject({ ok: true })
    expect(readFileSync(path, 'utf8')).toContain('2. Copy with rsync -a.')
  })

  it("asks before overwriting a supporting file the user edited by hand in a skill Cairn made", async () => {
    await setup('auto')
    await fx.core.skills.create({ name: 'deploy', category: 'devops', content: SKILL('2. Copy.') }, { source: 'agent' })
    await fx.core.skills.writeFile({ name: 'deploy', file_path: 'references/notes.md', file_content: 'Cairn notes\n' }, { source: 'agent' })
    const notes = join(fx.home, 'skills', 'devops', 'deploy', 'references', 'notes.md')
    writeFileSync(notes, 'My own notes: the staging box is flaky on Mondays.\n')
    fx.server.enqueue(
      { toolCalls: [{ name: 'skill_view', arguments: { name: 'deploy' } }, { name: 'skill_view', arguments: { name: 'deploy', file_path: 'references/notes.md' } }] },
      { toolCalls: [{ name: 'skill_manage', arguments: { action: 'write_file', name: 'deploy', file_path: 'references/notes.md', file_content: 'Rewritten by review\n' } }] },
      { text: 'Rewrote the notes.' }
    )
    await run('r-notes')
    expect(readFileSync(notes, 'utf8')).toBe('My own notes: the staging box is flaky on Mondays.\n')
    expect(pending().map((p) => [p.kind, p.cause])).toEqual([['skill.file_write', 'user_skill']])
  })
})

describe('deciding from two windows at once', () => {
  it('never both approves and rejects one proposal', async () => {
    await setup('ask')
    fx.server.enqueue({ toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'User prefers tabs' } }] }, { text: 'Proposed.' })
    await run('r-race')
    const [proposal] = pending()
    const [approved, rejected] = await Promise.all([new Inbox(fx.core).approve(proposal.id), new Inbox(fx.core).reject(proposal.id)])
    expect([approved.ok, rejected.ok].filter(Boolean)).toHaveLength(1)
    const applied = userEntries().includes('User prefers tabs')
    expect(applied).toBe(approved.ok)
    expect(new Inbox(fx.core).get(proposal.id)?.state).toBe(approved.ok ? 'approved' : 'rejected')
  })

  it('refuses to edit a removal instead of approving something else', async () => {
    await setup('ask')
    await fx.core.memory.add('user', 'User lives in Oslo', byUser)
    fx.server.enqueue({ toolCalls: [{ name: 'memory', arguments: { action: 'remove', target: 'user', old_text: 'Oslo' } }] }, { text: 'Proposed.' })
    await run('r-remove')
    const [proposal] = pending()
    expect(await new Inbox(fx.core).approve(proposal.id, 'User lives in Paris')).toMatchObject({ ok: false, code: 'refused' })
    expect(userEntries()).toEqual(['User lives in Oslo'])
  })
})

describe('a stale proposal', () => {
  it('can be set aside and proposed again for the file as it is now, unlike a rejected one', async () => {
    await setup('ask')
    await fx.core.skills.create({ name: 'deploy', category: 'devops', content: SKILL('2. Copy.') }, { source: 'agent' })
    const patch = { name: 'skill_manage', arguments: { action: 'patch', name: 'deploy', old_string: '1. Build.', new_string: '1. Build with `npm run build`.' } }
    const view = { name: 'skill_view', arguments: { name: 'deploy' } }
    fx.server.enqueue({ toolCalls: [view] }, { toolCalls: [patch] }, { text: 'Clarified step 1.' })
    await run('r-first')
    const [first] = pending()
    const inbox = new Inbox(fx.core)
    expect(await inbox.supersede(first.id)).toMatchObject({ ok: false, code: 'refused' }) // still fits: approve or reject it

    await fx.core.skills.patch({ name: 'deploy', old_string: '2. Copy.', new_string: '2. Copy with rsync.' }, { source: 'user' })
    expect(inbox.get(first.id)).toMatchObject({ stale: true })
    expect(await inbox.supersede(first.id)).toMatchObject({ ok: true, proposal: { state: 'superseded' } })

    fx.server.enqueue({ toolCalls: [view] }, { toolCalls: [patch] }, { text: 'Clarified step 1.' })
    await run('r-again')
    const [again] = pending()
    expect(again).toMatchObject({ stale: false, before: SKILL('2. Copy with rsync.'), after: SKILL('2. Copy with rsync.').replace('1. Build.', '1. Build with `npm run build`.') })
    expect((await inbox.approve(again.id)).ok).toBe(true)
  })
})

describe('taking a skill out of use', () => {
  it('is only ever proposed by a review, and approving disables it with its files kept', async () => {
    await setup('auto')
    await fx.core.skills.create({ name: 'deploy', category: 'devops', content: SKILL('2. Copy with ftp.') }, { source: 'agent' })
    fx.server.enqueue(
      { toolCalls: [{ name: 'propose_disable', arguments: { name: 'deploy', reason: 'The server no longer accepts FTP; the new pipeline deploys itself.' } }] },
      { text: 'Proposed disabling deploy.' }
    )
    const outcome = await run('r-disable')
    expect(fx.core.skillFlags.get('deploy').disabled).toBe(false)
    const [proposal] = pending()
    expect(proposal).toMatchObject({ kind: 'skill.disable', cause: 'disable', rationale: 'The server no longer accepts FTP; the new pipeline deploys itself.', stale: false })
    expect(outcome.proposals).toEqual([proposal.id])
    expect(await new Inbox(fx.core).approve(proposal.id, 'something else')).toMatchObject({ ok: false, code: 'refused' })
    expect(await new Inbox(fx.core).approve(proposal.id)).toMatchObject({ ok: true, proposal: { state: 'approved' }, ledgerEntry: null })
    expect(fx.core.skillFlags.get('deploy').disabled).toBe(true)
    expect(readFileSync(join(fx.home, 'skills', 'devops', 'deploy', 'SKILL.md'), 'utf8')).toBe(SKILL('2. Copy with ftp.'))
  })
})
