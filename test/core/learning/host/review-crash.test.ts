import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ReviewEvent } from '../../../../shared/review-protocol'
import { createAgentSession } from '../../../../electron/core/agent/create-agent'
import { CairnCore } from '../../../../electron/core/cairn'
import { forkReviewWorker } from '../../../../electron/core/learning/host/spawn-worker'
import { readSkillLenient, validateSkillContent } from '../../../../electron/core/skills'
import type { ScriptedReply } from '../../../scripted-provider'
import { isReviewRequest, reviewFixture, until, type ReviewFixture } from '../../../helpers/review-fixture'

let fx: ReviewFixture | null = null

afterEach(async () => {
  await fx?.close()
  fx = null
})

function ofType<T extends ReviewEvent['type']>(events: ReviewEvent[], type: T): Extract<ReviewEvent, { type: T }>[] {
  return events.filter((event) => event.type === type) as Extract<ReviewEvent, { type: T }>[]
}

function skillFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return skillFiles(path)
    return name === 'SKILL.md' ? [path] : []
  })
}

const skill = (n: number): string =>
  [
    '---',
    `name: tool${n}`,
    // Few words shared between them: a review refuses to create a skill of a family the library has (review-create-gate.ts).
    `description: Configure tool${n} on a new machine.`,
    '---',
    `# Tool ${n} setup`,
    '',
    ...Array.from({ length: 40 }, (_, line) => `${line + 1}. Step ${line + 1} for tool ${n}: run \`tool${n} configure --step ${line + 1}\`.`),
    ''
  ].join('\n')

/** Review replies: look at the list, then batches of skill creates and memory adds, forever. */
function writerReplies(): (index: number) => ScriptedReply {
  return (index) => {
    if (index === 0) return { toolCalls: [{ name: 'skills_list', arguments: {} }] }
    return {
      toolCalls: Array.from({ length: 10 }, (_, i) => {
        const n = (index - 1) * 10 + i
        return i % 2 === 0
          ? { name: 'skill_manage', arguments: { action: 'create', name: `tool${n}`, category: 'setup', content: skill(n) } }
          : { name: 'memory', arguments: { action: 'add', target: 'memory', content: `review entry ${n}: tool ${n} lives in /opt/tool${n}` } }
      })
    }
  }
}

describe('a review worker that dies', () => {
  it('killed with SIGKILL mid-write leaves every file whole; the chat still works and the next review runs in a fresh process', async () => {
    let reviewIndex = 0
    let nextReview: 'write' | 'nothing' = 'write'
    const replies = writerReplies()
    fx = await reviewFixture({
      config: { memory: { memoryCharLimit: 1_000_000 } },
      server: {
        respond: (request) => {
          if (!isReviewRequest(request)) return { text: 'Still here and answering.' }
          return nextReview === 'write' ? replies(reviewIndex++) : { text: 'Nothing to save.' }
        }
      }
    })
    const core = fx.core
    const { host, events } = fx.host({ limits: { maxIterations: 40 } })
    const crashed = host.enqueue({ sessionId: 's1', kinds: ['memory', 'skills'], reasons: [{ code: 'requested' as const }, { code: 'error_overcome' as const, tool: 'run_command' }], messages: fx.job().messages, skillsUsed: [] })
    await until(() => ofType(events, 'review_action').length >= 25, 'the worker to be busy writing', 30_000)
    const pid = ofType(events, 'review_started')[0].pid!
    process.kill(pid, 'SIGKILL')

    expect(await host.wait(crashed)).toBe('crashed')
    const failure = ofType(events, 'review_failed')[0]
    expect(failure).toMatchObject({ reviewId: crashed, crashed: true })
    expect(failure.error).toMatch(/was killed \(SIGKILL\) before finishing/)
    expect(host.runs.get(crashed)).toMatchObject({ status: 'crashed', pid })
    expect(host.paused).toBe(false)

    // Every file on disk is whole: each SKILL.md validates, each memory entry is one the review wrote.
    const files = skillFiles(join(fx.home, 'skills'))
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) {
      const name = file.split('/').at(-2)!
      expect(validateSkillContent(readFileSync(file, 'utf8'), name)).toBeNull()
      expect(readSkillLenient(readFileSync(file, 'utf8'), name).ok).toBe(true)
    }
    const fresh = await CairnCore.open({ home: fx.home })
    try {
      expect(fresh.skills.list().map((s) => s.name).sort()).toEqual(files.map((f) => f.split('/').at(-2)!).sort())
      expect(fresh.skills.diagnostics().filter((d) => d.severity === 'skipped')).toEqual([])
      const entries = fresh.memory.read('memory').entries
      expect(entries.length).toBeGreaterThan(0)
      for (const entry of entries) expect(entry).toMatch(/^review entry (\d+): tool \1 lives in \/opt\/tool\1$/)
      // What the ledger says was written is on disk (a kill can only lose the row of the last write, never the file).
      for (const row of fresh.ledger.list({ reviewId: crashed, limit: 1000 })) {
        if (row.kind === 'memory.add') expect(entries).toContain(row.after)
        if (row.kind === 'skill.create') expect(readFileSync(join(fx.home, row.target), 'utf8')).toBe(row.after)
      }
    } finally {
      await fresh.close()
    }

    // The chat on the same home is unaffected.
    const session = createAgentSession({ core, env: { CAIRN_API_KEY: fx.apiKey }, workspace: fx.home })
    const turn = await session.runTurn('Are you still there?').done
    expect(turn.reason).toBe('completed')
    expect(turn.answer).toBe('Still here and answering.')

    // Restart the process, not the work: the next review is a new process and succeeds.
    nextReview = 'nothing'
    const next = host.enqueue({ sessionId: 's2', kinds: ['memory'], reasons: [{ code: 'requested' as const }, { code: 'error_overcome' as const, tool: 'run_command' }], messages: fx.job().messages, skillsUsed: [] })
    expect(await host.wait(next)).toBe('done')
    const pids = ofType(events, 'review_started').map((e) => e.pid)
    expect(pids).toHaveLength(2)
    expect(pids[1]).not.toBe(pid)
    expect(ofType(events, 'review_finished')[0].outcome.summary).toMatchObject({ saved: false })
  }, 90_000)

  it('three crashes or timeouts in a row pause reviews until resumed', async () => {
    let mode: 'hang' | 'ok' = 'hang'
    fx = await reviewFixture({ server: { respond: () => (mode === 'hang' ? { fault: { type: 'hang' } } : { text: 'Nothing to save.' }) } })
    let spawned = 0
    const { host, events } = fx.host({ limits: { timeoutMs: 1_000, killGraceMs: 3_000 }, spawn: () => (spawned++, forkReviewWorker()) })
    const ids = ['a', 'b', 'c'].map((sessionId) => host.enqueue({ sessionId, kinds: ['memory'], reasons: [{ code: 'requested' as const }], messages: fx!.job().messages, skillsUsed: [] }))
    await host.whenIdle()

    expect(await Promise.all(ids.map((id) => host.wait(id)))).toEqual(['timeout', 'timeout', 'timeout'])
    expect(ids.map((id) => host.runs.get(id)!.status)).toEqual(['timeout', 'timeout', 'timeout'])
    expect(host.runs.get(ids[0])!.error).toMatch(/longer than its 1 s budget/)
    const paused = ofType(events, 'reviews_paused')
    expect(paused).toHaveLength(1)
    expect(paused[0].reason).toMatchObject({ code: 'failures', count: 3, latest: expect.stringMatching(/longer than its 1 s budget/) })
    expect(host.paused).toBe(true)

    // While paused a new review waits; nothing is started.
    const waiting = host.enqueue({ sessionId: 'd', kinds: ['memory'], reasons: [{ code: 'requested' as const }, { code: 'error_overcome' as const, tool: 'run_command' }], messages: fx.job().messages, skillsUsed: [] })
    await host.whenIdle()
    expect(spawned).toBe(3)
    expect(host.runs.get(waiting)!.status).toBe('queued')

    mode = 'ok'
    host.resume()
    expect(await host.wait(waiting)).toBe('done')
    expect(spawned).toBe(4)
    expect(ofType(events, 'reviews_resumed')).toHaveLength(1)
    expect(host.paused).toBe(false)
  }, 90_000)
})
