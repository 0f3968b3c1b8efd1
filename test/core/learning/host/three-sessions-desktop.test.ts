import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { translator } from '../../../../shared/i18n'
import { describeLearned } from '../../../../shared/i18n/describe-learning'
import { appFixture, type AppFixture } from '../../../helpers/app-fixture'
import { isReviewRequest } from '../../../helpers/review-fixture'
import type { RecordedChatRequest, ScriptedReply } from '../../../scripted-provider'
import { TestClock, approveEverything, finishedReviews, queuedReviews, say } from './desktop-chat'

/**
 * The three-session story at the length desktop chats really have (2–4 user turns each), in the app
 * with its idle clock: no single turn trips a trigger and no conversation reaches the memory interval,
 * yet each conversation is reviewed once when it ends, and the story still ends with the preference in
 * memory and the skill patched, used cleanly in the third conversation.
 */

const SKILL_V1 = `---
name: node-project-setup
description: Set up a new Node.js project with a test runner and a test script.
---
# Node project setup
1. Create the folder with a package.json: \`mkdir -p <dir> && echo {} > <dir>/package.json\`.
2. Install dev dependencies: \`npm install -D <package>\`.
3. Add a test script: \`"test": "vitest run"\`.
`
const STEP_2_OLD = '2. Install dev dependencies: `npm install -D <package>`.'
const STEP_2_NEW = '2. Install dev dependencies with pnpm: `pnpm add -D <package>` (the user never uses npm).'

let fx: AppFixture
let clock: TestClock
const chat: ScriptedReply[] = []
const review: ScriptedReply[] = []
const sessions: string[] = []
const run = (command: string): ScriptedReply => ({ toolCalls: [{ name: 'run_command', arguments: { command } }] })

beforeAll(async () => {
  clock = new TestClock()
  fx = await appFixture({
    server: { respond: (request: RecordedChatRequest) => (isReviewRequest(request) ? review.shift() : chat.shift()) },
    app: { clock },
    // Curation runs on the same clock; the story is about conversations alone.
    config: { learning: { curateEveryDays: 0 } }
  })
  approveEverything(fx)
})
afterAll(async () => {
  await fx.close()
})

describe('learned, reused and patched in short desktop conversations', () => {
  it('conversation 1 (3 turns) goes quiet and is reviewed once: the review saves the procedure as a skill', async () => {
    chat.push(
      run('mkdir -p app && echo {} > app/package.json'),
      { text: 'Created app/package.json.' },
      run('cd app && echo "npm install -D vitest"'),
      { text: 'Added vitest with npm install -D vitest.' },
      { text: 'Added "test": "vitest run" to the scripts.' }
    )
    review.push(
      { toolCalls: [{ name: 'skills_list', arguments: {} }] },
      { toolCalls: [{ name: 'skill_manage', arguments: { action: 'create', name: 'node-project-setup', category: 'dev', content: SKILL_V1 } }] },
      { text: 'Created node-project-setup.' }
    )
    const id = await say(fx, null, 'Set up a new Node project in the app folder.')
    await say(fx, id, 'Add vitest as a dev dependency.')
    await say(fx, id, 'And a test script, please. Remember these steps for next time.')
    sessions.push(id)
    expect(queuedReviews(fx)).toEqual([]) // no turn was worth a review on its own
    clock.pass(10)
    expect(queuedReviews(fx).map((e) => [e.sessionId, e.reasons])).toEqual([[id, [{ code: 'session_end', cause: 'idle', turns: 3 }]]])
    await fx.app.host.whenIdle()
    expect(finishedReviews(fx)[0].outcome.summary.skills).toEqual([
      { name: 'node-project-setup', verb: 'created', description: 'Set up a new Node.js project with a test runner and a test script.' }
    ])
    clock.pass(60) // quiet for longer still: nothing new to review
    expect(queuedReviews(fx)).toHaveLength(1)
  })

  it('conversation 2 (3 turns) follows the skill, the user says they use pnpm; its end review patches the skill and saves the preference', async () => {
    chat.push(
      { toolCalls: [{ name: 'skill_view', arguments: { name: 'node-project-setup' } }] },
      run('mkdir -p tool && echo {} > tool/package.json'),
      { text: 'Created tool/package.json, following node-project-setup.' },
      run('cd tool && echo "pnpm add -D vitest"'),
      { text: 'Added vitest with pnpm add -D vitest.' },
      { text: 'Added the test script.' }
    )
    review.push(
      { toolCalls: [{ name: 'memory', arguments: { action: 'read', target: 'user' } }, { name: 'skill_view', arguments: { name: 'node-project-setup' } }] },
      {
        toolCalls: [
          { name: 'memory', arguments: { action: 'add', target: 'user', content: 'Uses pnpm, never npm.' } },
          { name: 'skill_manage', arguments: { action: 'patch', name: 'node-project-setup', old_string: STEP_2_OLD, new_string: STEP_2_NEW } }
        ]
      },
      { text: 'Saved the preference and patched step 2.\nSkill outcome: node-project-setup: failure' }
    )
    // Starting it ends conversation 1 again, which has nothing new: no second review of it.
    const id = await say(fx, null, 'Set up another Node project, in the tool folder.')
    expect(fx.core.sessions.get(id)!.systemPrompt).toContain('node-project-setup')
    await say(fx, id, 'We use pnpm here, never npm. Add vitest with pnpm.')
    await say(fx, id, 'Thanks, add the test script too.')
    sessions.push(id)
    expect(queuedReviews(fx)).toHaveLength(1)
    clock.pass(12)
    expect(queuedReviews(fx).at(-1)).toMatchObject({ sessionId: id, reasons: [{ code: 'session_end', cause: 'idle', turns: 3 }] })
    await fx.app.host.whenIdle()

    const skill = readFileSync(join(fx.home, 'skills', 'dev', 'node-project-setup', 'SKILL.md'), 'utf8')
    expect(skill).toContain(STEP_2_NEW)
    expect(skill).not.toContain(STEP_2_OLD)
    expect(readFileSync(join(fx.home, 'memories', 'USER.md'), 'utf8')).toBe('Uses pnpm, never npm.')
    expect(fx.core.skills.getUsage('node-project-setup')).toMatchObject({ failureCount: 1 })
    // The conversation keeps what its review learned, in words.
    const { learned } = await fx.ok('sessions.get', { sessionId: id })
    expect(describeLearned(learned![0].summary, translator('en'))).toEqual([
      'Remembered: Uses pnpm, never npm.',
      `Skill node-project-setup: ${STEP_2_NEW}`
    ])
  })

  it('conversation 3 (2 turns) starts with the preference and the patched skill, works cleanly, and is reviewed at quit', async () => {
    chat.push(
      { toolCalls: [{ name: 'skill_view', arguments: { name: 'node-project-setup' } }] },
      run('mkdir -p web && echo {} > web/package.json'),
      { text: 'Created web/package.json.' },
      run('cd web && echo "pnpm add -D vitest"'),
      { text: 'Added vitest with pnpm.' }
    )
    review.push({ text: 'Nothing to save.\nSkill outcome: node-project-setup: success' })
    const id = await say(fx, null, 'Set up a Node project in the web folder.')
    const prompt = fx.core.sessions.get(id)!.systemPrompt!
    expect(prompt).toContain('Uses pnpm, never npm.')
    const viewed = fx.core.sessions.messages(id).find((m) => m.role === 'tool' && m.toolName === 'skill_view')
    expect(viewed?.content).toContain('pnpm add -D <package>')
    await say(fx, id, 'Add vitest.')
    sessions.push(id)
    await fx.app.close() // quitting: its two turns are reviewed before the app is gone

    expect(queuedReviews(fx).map((e) => [e.sessionId, e.reasons[0]])).toEqual([
      [sessions[0], { code: 'session_end', cause: 'idle', turns: 3 }],
      [sessions[1], { code: 'session_end', cause: 'idle', turns: 3 }],
      [sessions[2], { code: 'session_end', cause: 'quit', turns: 2 }]
    ])
    expect(finishedReviews(fx)).toHaveLength(3)
    expect(finishedReviews(fx)[2].outcome.summary.saved).toBe(false)
    expect(fx.core.skills.getUsage('node-project-setup')).toMatchObject({ failureCount: 1, successCount: 1 })
  })
})
