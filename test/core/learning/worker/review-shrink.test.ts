import { readFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { translator } from '../../../../shared/i18n'
import { describeRationale } from '../../../../shared/i18n/describe-rationale'
import { ProposalStore } from '../../../../electron/core/ledger/proposals'
import { reviewDepsOf, runReview } from '../../../../electron/core/learning/worker/review-runner'
import { skillShrink } from '../../../../electron/core/staging/skill-shrink'
import { reviewFixture, type ReviewFixture } from '../../../helpers/review-fixture'

/** A review's whole-file rewrite that cuts a skill down waits for the user; a small edit still applies. */

const FRONT = ['---', 'name: release', 'description: Use when cutting a release of the desktop app.', '---']
/** 33 non-blank lines, as the Cairn-made skill a review once cut to 8. */
const LONG_SKILL = [
  ...FRONT,
  '# Release',
  '',
  '## Prepare',
  ...Array.from({ length: 10 }, (_, i) => `${i + 1}. Prepare step ${i + 1}: check item ${i + 1}.`),
  '',
  '## Build',
  ...Array.from({ length: 8 }, (_, i) => `${i + 1}. Build step ${i + 1}.`),
  '',
  '## Pitfalls',
  ...Array.from({ length: 7 }, (_, i) => `- Pitfall ${i + 1}: what went wrong once, and the fix.`),
  ''
].join('\n')
const CUT_SKILL = [...FRONT, '# Release', '', '## Build', '1. Build it.', '2. Ship it.', ''].join('\n')

let fx: ReviewFixture
beforeEach(async () => {
  fx = await reviewFixture()
  await fx.core.skills.create({ name: 'release', category: 'dev', content: LONG_SKILL }, { source: 'agent' })
})
afterEach(async () => {
  await fx.close()
})

const skillFile = () => readFileSync(fx.core.skills.get('release')!.path, 'utf8')
const view = { name: 'skill_view', arguments: { name: 'release' } }
const toolResult = (request: number, index = 0) =>
  JSON.parse((fx.server.chatRequests()[request].body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'tool')[index].content)

function review(...calls: Array<{ name: string; arguments: Record<string, unknown> }>) {
  fx.server.enqueue(...calls.map((call) => ({ toolCalls: [call] })), { text: 'Tidied the release skill.' })
  return runReview({ deps: reviewDepsOf(fx.core), provider: fx.provider(), job: fx.job({ reviewId: 'r-shrink' }), maxIterations: 16, allowSkillCreation: true })
}

describe('the skill shrink guard', () => {
  it('counts the figures: 33 lines cut to 8, two sections dropped', () => {
    expect(skillShrink(LONG_SKILL, CUT_SKILL)).toEqual({ linesBefore: 33, linesAfter: 8, sectionsDropped: ['Prepare', 'Pitfalls'] })
    expect(skillShrink(LONG_SKILL, LONG_SKILL.replace('Build step 3.', 'Build step 3, signed.'))).toBeNull()
  })

  it('measures every edit of a run against the skill as the run found it, so small cuts do not add up to a big one', async () => {
    // Each drops under a third of what the one before it left, and keeps every section.
    const trimmed = (prepare: number, build: number, pitfalls: number) =>
      [...FRONT, '# Release', '', '## Prepare', ...Array.from({ length: prepare }, (_, i) => `${i + 1}. Prepare step ${i + 1}.`), '', '## Build',
        ...Array.from({ length: build }, (_, i) => `${i + 1}. Build step ${i + 1}.`), '', '## Pitfalls', ...Array.from({ length: pitfalls }, (_, i) => `- Pitfall ${i + 1}.`), ''].join('\n')
    const edit = (content: string) => ({ name: 'skill_manage', arguments: { action: 'edit', name: 'release', content } })
    await review(view, edit(trimmed(7, 6, 5)), view, edit(trimmed(5, 4, 3)), view, edit(trimmed(3, 2, 2)))
    expect(skillFile()).toBe(trimmed(7, 6, 5))
    expect(new ProposalStore(fx.core.db).list({ reviewId: 'r-shrink' }).map((proposal) => proposal.cause)).toContain('skill_shrink')
  })

  it('holds back a review edit that cuts a 33-line skill to 8 lines, with the reason, and tells the model', async () => {
    const outcome = await review(view, { name: 'skill_manage', arguments: { action: 'edit', name: 'release', content: CUT_SKILL } })

    expect(skillFile()).toBe(LONG_SKILL)
    const [proposal] = new ProposalStore(fx.core.db).list({ reviewId: 'r-shrink' })
    expect(proposal).toMatchObject({ kind: 'skill.edit', cause: 'skill_shrink', before: LONG_SKILL, after: CUT_SKILL })
    expect(describeRationale(proposal.rationale, translator('en'))).toBe(
      'It would cut the skill from 33 to 8 lines and drop these sections: Prepare, Pitfalls. The reviewer said: Tidied the release skill.'
    )
    expect(describeRationale(proposal.rationale, translator('zh-CN'))).toContain('从 33 行删减到 8 行')
    expect(outcome.summary).toMatchObject({ saved: false, proposed: 1 })
    expect(toolResult(2, 1)).toMatchObject({ proposed: true, message: expect.stringMatching(/cuts the skill from 33 to 8 lines and drops the sections 'Prepare', 'Pitfalls'/) })
  })

  it('applies a small edit and a patch that keeps every section', async () => {
    const edited = LONG_SKILL.replace('Build step 3.', 'Build step 3, signed with the release key.')
    const outcome = await review(
      view,
      { name: 'skill_manage', arguments: { action: 'edit', name: 'release', content: edited } },
      { name: 'skill_manage', arguments: { action: 'patch', name: 'release', old_string: '- Pitfall 7: what went wrong once, and the fix.\n', new_string: '' } }
    )

    expect(outcome.proposals).toBeUndefined()
    expect(skillFile()).toBe(edited.replace('- Pitfall 7: what went wrong once, and the fix.\n', ''))
  })

  it('holds back a patch that removes a whole section', async () => {
    const pitfalls = LONG_SKILL.slice(LONG_SKILL.indexOf('## Pitfalls'))
    await review(view, { name: 'skill_manage', arguments: { action: 'patch', name: 'release', old_string: pitfalls, new_string: '' } })

    expect(skillFile()).toBe(LONG_SKILL)
    const [proposal] = new ProposalStore(fx.core.db).list({ reviewId: 'r-shrink' })
    expect(proposal).toMatchObject({ cause: 'skill_shrink' })
    expect(describeRationale(proposal.rationale, translator('en'))).toMatch(/^It would cut the skill from 33 to 25 lines and drop these sections: Pitfalls\./)
  })
})
