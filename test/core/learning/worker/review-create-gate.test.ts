import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ReviewJob } from '../../../../shared/review-protocol'
import { ONE_OFF_CREATE_MESSAGE, sameFamilyMessage } from '../../../../electron/core/learning/worker/review-create-gate'
import { reviewDepsOf, runReview } from '../../../../electron/core/learning/worker/review-runner'
import { reviewFixture, type ReviewFixture } from '../../../helpers/review-fixture'
import { DEPLOY_SKILL } from '../../../helpers/sloppy-reviewer'

/** A review creates a skill only for a procedure worth repeating, enforced in code whatever the model decides. */

const CSV_SKILL = [
  '---',
  'name: sales-report-csv',
  'description: Use when converting the monthly sales report spreadsheet to CSV.',
  '---',
  '# Sales report to CSV',
  '',
  '1. Open the report with `xlsx2csv --all`.',
  '2. Keep the header row.',
  ''
].join('\n')
const createCsv = { name: 'skill_manage', arguments: { action: 'create', name: 'sales-report-csv', category: 'data', content: CSV_SKILL } }

let fx: ReviewFixture
beforeEach(async () => {
  fx = await reviewFixture()
})
afterEach(async () => {
  await fx.close()
})

function conversation(userText: string, overrides: Partial<ReviewJob> = {}): ReviewJob {
  return fx.job({
    reasons: [{ code: 'long_task', count: 6 }],
    messages: [
      { role: 'user', content: userText },
      { role: 'assistant', content: 'Converted the sales report to sales.csv.' }
    ],
    ...overrides
  })
}

async function reviewCreating(job: ReviewJob, create = createCsv) {
  fx.server.enqueue({ toolCalls: [create] }, { text: 'Done.' })
  await runReview({ deps: reviewDepsOf(fx.core), provider: fx.provider(), job, maxIterations: 16, allowSkillCreation: true })
  const messages = fx.server.chatRequests().at(-1)!.body.messages as Array<{ role: string; content: string }>
  return JSON.parse(messages.filter((m) => m.role === 'tool')[0].content) as { success: boolean; error?: string }
}

const csvSkillExists = () => existsSync(join(fx.home, 'skills', 'data', 'sales-report-csv', 'SKILL.md'))

describe('creating a skill in a review', () => {
  it('refuses a create for a one-off task, telling the model to patch or save nothing', async () => {
    const result = await reviewCreating(conversation('Convert the sales report spreadsheet to CSV.'))
    expect(result).toEqual({ success: false, error: ONE_OFF_CREATE_MESSAGE })
    expect(csvSkillExists()).toBe(false)
  })

  it('allows it when an error was overcome on the way', async () => {
    const job = conversation('Convert the sales report spreadsheet to CSV.', { reasons: [{ code: 'error_overcome', tool: 'run_command' }] })
    expect(await reviewCreating(job)).toMatchObject({ success: true })
    expect(csvSkillExists()).toBe(true)
  })

  it('allows it when the user asked to keep how to do it', async () => {
    expect(await reviewCreating(conversation('Convert the sales report to CSV, and remember how to do it for next month.'))).toMatchObject({ success: true })
    expect(csvSkillExists()).toBe(true)
  })

  it('does not take words every description and request hold for an earlier request of the same kind', async () => {
    fx.session(['Can you use the new logo file in the project for me, please?', 'Done.'])
    const current = fx.session(['Chart this CSV for me.', 'Charted.'])
    const chart = '---\nname: csv-chart\ndescription: Use when the user asks to chart a CSV file.\n---\n# Chart a CSV\n1. Plot it.\n'
    const result = await reviewCreating(conversation('Chart this CSV for me.', { sessionId: current }), { name: 'skill_manage', arguments: { action: 'create', name: 'csv-chart', category: 'data', content: chart } })
    expect(result).toEqual({ success: false, error: ONE_OFF_CREATE_MESSAGE })
  })

  it('does not count the reviewed conversation itself as an earlier one', async () => {
    const current = fx.session(['Convert the sales report spreadsheet to CSV.', 'Converted.'])
    expect(await reviewCreating(conversation('Convert the sales report spreadsheet to CSV.', { sessionId: current }))).toMatchObject({ success: false })
  })

  it('allows it when another conversation had a similar request', async () => {
    const earlier = fx.session(['Can you turn the monthly sales report spreadsheet into CSV?', 'Here is sales.csv.'])
    const current = fx.session(['Convert the sales report spreadsheet to CSV.', 'Converted.'])
    expect(earlier).not.toBe(current)
    expect(await reviewCreating(conversation('Convert the sales report spreadsheet to CSV.', { sessionId: current }))).toMatchObject({ success: true })
  })

  it('lets a skill for another task through though it shares a word with one the library has', async () => {
    const setup = '---\nname: node-checkout-setup\ndescription: Get an existing Node.js checkout ready to work on.\n---\n# Node checkout setup\n1. npm install\n'
    await fx.core.skills.create({ name: 'node-checkout-setup', category: 'dev', content: setup }, { source: 'agent' })
    const created = '---\nname: new-node-project\ndescription: Use when starting a new Node.js project (pnpm, TypeScript, Vitest).\n---\n# New Node project\n1. pnpm init\n'
    const job = conversation('Help me set up a new Node project. Remember these steps for next time.')
    const result = await reviewCreating(job, { name: 'skill_manage', arguments: { action: 'create', name: 'new-node-project', category: 'dev', content: created } })
    expect(result).toMatchObject({ success: true })
  })

  it('refuses a near-duplicate of a skill the library has, naming the one to patch', async () => {
    await fx.core.skills.create({ name: 'deploy-staging', category: 'devops', content: DEPLOY_SKILL }, { source: 'agent' })
    const duplicate = DEPLOY_SKILL.replace('name: deploy-staging', 'name: staging-deploy')
    const job = conversation('Deploy the web app to staging.', { reasons: [{ code: 'error_overcome', tool: 'run_command' }] })
    const result = await reviewCreating(job, { name: 'skill_manage', arguments: { action: 'create', name: 'staging-deploy', category: 'devops', content: duplicate } })
    expect(result).toEqual({ success: false, error: sameFamilyMessage('deploy-staging') })
  })
})
