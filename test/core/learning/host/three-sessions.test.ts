import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ReviewEvent } from '../../../../shared/review-protocol'
import type { AgentSession } from '../../../../electron/core/agent/agent-session'
import { createAgentSession } from '../../../../electron/core/agent/create-agent'
import { CairnCore } from '../../../../electron/core/cairn'
import { LearningLoop } from '../../../../electron/core/learning/host/learning-loop'
import { ReviewHost, reviewHostDepsOf } from '../../../../electron/core/learning/host/review-host'
import { forkReviewWorker } from '../../../../electron/core/learning/host/spawn-worker'
import { resolveProviderSettings } from '../../../../electron/core/provider/provider-settings'
import { startScriptedServer, type RecordedChatRequest, type ScriptedReply, type ScriptedServer } from '../../../scripted-provider'
import { isReviewRequest, reviewUserText } from '../../../helpers/review-fixture'

/**
 * The product's story, end to end with real worker processes: a deployment learned once (session 1,
 * a long task with two errors overcome → the review creates a skill), reused and patched (session 2:
 * the skill is in the prompt's index, the model reads it, hits a new pitfall; the user states a
 * preference → the review patches the skill and saves the preference), then done cleanly (session 3
 * starts with the patched skill and the preference in its frozen prompt).
 */

const SKILL_V1 = `---
name: deploy-static-site
description: Build the static site and copy it to the deploy target folder.
---
# Deploy the static site
1. Build: \`mkdir -p dist && echo built > dist/index.html\` (there is no build script; do not call npm).
2. Copy: \`cp dist/index.html deploy-target/\`.
3. Check: \`cat deploy-target/index.html\` prints "built".
`

/** A skill the story never touches: the app must not re-read it when a review changes another one. */
const UNRELATED_SKILL = `---
name: keep-notes
description: Keep meeting notes in notes/YYYY-MM-DD.md.
---
# Keep notes
`

let home: string
let workspace: string
let server: ScriptedServer
let core: CairnCore
let host: ReviewHost
let loop: LearningLoop
const reviewEvents: ReviewEvent[] = []
const chatQueue: ScriptedReply[] = []
const reviewQueue: ScriptedReply[] = []

function respond(request: RecordedChatRequest): ScriptedReply | undefined {
  return isReviewRequest(request) ? reviewQueue.shift() : chatQueue.shift()
}

const run = (command: string): ScriptedReply => ({ toolCalls: [{ name: 'run_command', arguments: { command } }] })

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-story-'))
  workspace = mkdtempSync(join(tmpdir(), 'cairn-story-ws-'))
  server = await startScriptedServer({ strict: true, apiKey: 'sk-story', respond })
  mkdirSync(join(home, 'skills', 'notes', 'keep-notes'), { recursive: true })
  writeFileSync(join(home, 'skills', 'notes', 'keep-notes', 'SKILL.md'), UNRELATED_SKILL)
  core = await CairnCore.open({ home })
  await core.config.update({
    provider: { preset: 'custom', baseURL: server.url, model: 'scripted', maxRetries: 0, requestTimeoutMs: 15_000 },
    skills: { extraDirs: [] }
  })
  const env = { CAIRN_API_KEY: 'sk-story' }
  host = new ReviewHost({ ...reviewHostDepsOf(core), spawn: () => forkReviewWorker(), provider: () => resolveProviderSettings(core.config.get(), env) })
  host.events.on((event) => reviewEvents.push(event))
  loop = new LearningLoop(core, host)
})

afterAll(async () => {
  await host.close()
  await core.close()
  await server.close()
  rmSync(home, { recursive: true, force: true })
  rmSync(workspace, { recursive: true, force: true })
})

function openSession(): AgentSession {
  return createAgentSession({ core, env: { CAIRN_API_KEY: 'sk-story' }, workspace, autoApprove: true, hooks: loop.hooks })
}

function finished(): Extract<ReviewEvent, { type: 'review_finished' }>[] {
  return reviewEvents.filter((e): e is Extract<ReviewEvent, { type: 'review_finished' }> => e.type === 'review_finished')
}

describe('learned once, reused, patched, then done cleanly', () => {
  it('session 1: a long task with two errors overcome makes the review create a skill', async () => {
    chatQueue.push(
      run('ls dist'), // error 1: not built yet
      run('mkdir -p dist && echo built > dist/index.html'),
      run('cp dist/index.html deploy-target/'), // error 2: no target folder
      run('mkdir -p deploy-target && cp dist/index.html deploy-target/'),
      run('cat deploy-target/index.html'),
      { text: 'Deployed: deploy-target/index.html says "built".' }
    )
    reviewQueue.push(
      { toolCalls: [{ name: 'skills_list', arguments: {} }] },
      { toolCalls: [{ name: 'skill_manage', arguments: { action: 'create', name: 'deploy-static-site', category: 'devops', content: SKILL_V1 } }] },
      { text: 'Created the deploy-static-site skill.' }
    )
    // Broken behind the store's back (this core has no watcher): only a full rescan would notice.
    const unrelated = core.skills.get('keep-notes')!
    writeFileSync(unrelated.path, '---\nname: keep-notes\ndescription: [broken\n---\n')
    const session = openSession()
    const turn = await session.runTurn('Deploy the site to the deploy-target folder.').done
    expect(turn.reason).toBe('completed')
    expect(turn.toolCalls.filter((c) => !c.ok)).toHaveLength(2)
    await host.whenIdle()

    const [review] = finished()
    expect(review.outcome.summary).toMatchObject({ saved: true, user: { added: 0 }, skills: [{ name: 'deploy-static-site', verb: 'created' }] })
    const skillPath = join(home, 'skills', 'devops', 'deploy-static-site', 'SKILL.md')
    expect(readFileSync(skillPath, 'utf8')).toBe(SKILL_V1)
    // The app's index has the review's skill at once, and re-read only that: the unrelated one is as it was.
    expect(core.skills.get('deploy-static-site')).toMatchObject({ category: 'devops', path: skillPath })
    expect(core.skills.get('keep-notes')).toEqual(unrelated)
    expect(core.skills.diagnostics()).toEqual([])
    const [row] = core.ledger.list({ kinds: ['skill.create'] })
    expect(row).toMatchObject({ source: 'review', sessionId: session.id, reviewId: review.reviewId, target: 'skills/devops/deploy-static-site/SKILL.md' })
    // The review ran in another process and saw why it was started.
    const started = reviewEvents.find((e) => e.type === 'review_started') as Extract<ReviewEvent, { type: 'review_started' }>
    expect(started.pid).not.toBe(process.pid)
    expect(started.reasons).toEqual(expect.arrayContaining([{ code: 'long_task', count: 5 }, { code: 'error_overcome', tool: 'run_command' }]))
    const reviewRequest = server.chatRequests().find(isReviewRequest)!
    expect(reviewUserText(reviewRequest)).toContain('cp dist/index.html deploy-target/')
  })

  it('session 2: the skill is in the index, the model reads it, hits a pitfall, and the review patches it and saves the preference', async () => {
    chatQueue.push(
      { toolCalls: [{ name: 'skill_view', arguments: { name: 'deploy-static-site' } }] },
      run('mkdir -p dist && echo built > dist/index.html'),
      run('rm -rf deploy-target && cp dist/index.html deploy-target/'), // pitfall: the target folder can be missing
      run('mkdir -p deploy-target && cp dist/index.html deploy-target/ && cat deploy-target/index.html'),
      { text: 'Deployed again. The skill missed that deploy-target may not exist.' }
    )
    reviewQueue.push(
      { toolCalls: [{ name: 'memory', arguments: { action: 'read', target: 'user' } }, { name: 'skill_view', arguments: { name: 'deploy-static-site' } }] },
      {
        toolCalls: [
          { name: 'memory', arguments: { action: 'add', target: 'user', content: 'Wants a smoke check (cat the deployed index.html) after every deploy.' } },
          {
            name: 'skill_manage',
            arguments: {
              action: 'patch',
              name: 'deploy-static-site',
              old_string: '2. Copy: `cp dist/index.html deploy-target/`.',
              new_string: '2. Copy: `mkdir -p deploy-target && cp dist/index.html deploy-target/` (the folder may not exist yet).'
            }
          }
        ]
      },
      { text: 'Saved the preference and patched the skill.\nSkill outcome: deploy-static-site: failure' }
    )
    const session = openSession()
    expect(session.systemPrompt).toContain('deploy-static-site')
    const turn = await session.runTurn('Deploy again please. I prefer you always finish with a smoke check of the deployed page.').done
    expect(turn.reason).toBe('completed')
    await host.whenIdle()

    const review = finished()[1]
    expect(review.outcome.summary).toMatchObject({ saved: true, user: { added: 1 }, skills: [{ name: 'deploy-static-site', verb: 'updated' }] })
    const skill = readFileSync(join(home, 'skills', 'devops', 'deploy-static-site', 'SKILL.md'), 'utf8')
    expect(skill).toContain('mkdir -p deploy-target && cp dist/index.html deploy-target/')
    expect(skill).not.toContain('2. Copy: `cp dist/index.html deploy-target/`.')
    expect(readFileSync(join(home, 'memories', 'USER.md'), 'utf8')).toContain('smoke check')
    const rows = core.ledger.list({ reviewId: review.reviewId })
    expect(rows.map((r) => r.kind).sort()).toEqual(['memory.add', 'skill.patch'])
    expect(rows.every((r) => r.source === 'review' && r.sessionId === session.id)).toBe(true)
    expect(core.skills.getUsage('deploy-static-site')).toMatchObject({ useCount: 1, failureCount: 1 })
    // Both kinds were reviewed: the user stated a preference, and the turn overcame an error.
    const started = reviewEvents.filter((e) => e.type === 'review_started')[1] as Extract<ReviewEvent, { type: 'review_started' }>
    expect(started.kinds).toEqual(['memory', 'skills'])
  })

  it('session 3: starts with the patched skill and the preference, and does the job cleanly', async () => {
    chatQueue.push(
      { toolCalls: [{ name: 'skill_view', arguments: { name: 'deploy-static-site' } }] },
      run('mkdir -p dist && echo built > dist/index.html'),
      run('mkdir -p deploy-target && cp dist/index.html deploy-target/ && cat deploy-target/index.html'),
      { text: 'Deployed and smoke-checked: the page says "built".' }
    )
    const session = openSession()
    expect(session.systemPrompt).toContain('Wants a smoke check (cat the deployed index.html) after every deploy.')
    expect(session.systemPrompt).toContain('deploy-static-site')
    const before = finished().length
    const turn = await session.runTurn('Deploy the site once more.').done
    expect(turn.reason).toBe('completed')
    expect(turn.toolCalls.every((c) => c.ok)).toBe(true)
    const viewed = session.modelMessages().find((m) => m.role === 'tool' && typeof m.content === 'string' && m.content.includes('deploy-static-site'))
    expect(viewed?.content).toContain('the folder may not exist yet')
    await host.whenIdle()
    // A clean, short task is not worth a review: no new learning, no junk.
    expect(finished()).toHaveLength(before)
    expect(existsSync(join(workspace, 'deploy-target', 'index.html'))).toBe(true)
  })
})
