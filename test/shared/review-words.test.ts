import { describe, expect, it } from 'vitest'
import type { TurnSummary } from '../../electron/core/agent/agent-session'
import { summarizeReview } from '../../electron/core/staging/review-summary'
import { emptyCounters, evaluateTurn, type TriggerSettings } from '../../electron/core/learning/host/triggers'
import { translator } from '../../shared/i18n'
import { describeConnectionTest, describePauseReason, describeReviewReason, describeReviewSummary } from '../../shared/i18n/describe'
import { normalizeLedgerMeta, type LedgerEntry, type LedgerKind } from '../../shared/ledger'
import { parseStoredReason, type ReviewReason } from '../../shared/review-reasons'
import { reasonForModel } from '../../electron/core/learning/worker/review-prompts'

const en = translator('en')
const zh = translator('zh-CN')

function row(id: number, kind: LedgerKind, target: string, meta: Record<string, unknown> = {}): LedgerEntry {
  return {
    id, at: '2026-01-01T00:00:00.000Z', kind, target, source: 'review', sessionId: null, reviewId: 'rv',
    before: null, after: 'x', revertedBy: null, meta: normalizeLedgerMeta(kind, target, meta)
  } as LedgerEntry
}

/** Latin letters left once names (skills, tools, URLs) are taken out: what a zh-CN user would see in English. */
const english = (text: string, ...names: string[]) => names.reduce((rest, name) => rest.split(name).join(''), text).match(/[A-Za-z]+/g) ?? []

describe('review summaries', () => {
  const summary = summarizeReview([
    row(4, 'skill.patch', 'skills/deploy/SKILL.md', { skill: 'deploy' }),
    row(1, 'memory.add', 'memories/MEMORY.md'),
    row(2, 'skill.create', 'skills/devops/docker-compose-debug/SKILL.md', { skill: 'docker-compose-debug', category: 'devops' }),
    row(3, 'memory.replace', 'memories/USER.md'),
    row(5, 'skill.patch', 'skills/devops/docker-compose-debug/SKILL.md', { skill: 'docker-compose-debug' })
  ])

  it('reads the same line as before in English, and a Chinese one without English words', () => {
    expect(describeReviewSummary(summary, en)).toBe('Memory updated · User profile updated · Skill "docker-compose-debug" created · Skill "deploy" updated')
    const chinese = describeReviewSummary(summary, zh)!
    expect(chinese).toContain('已创建技能“docker-compose-debug”')
    expect(english(chinese, 'docker-compose-debug', 'deploy')).toEqual([])
  })

  it('says nothing when the review saved nothing', () => {
    expect(describeReviewSummary(summarizeReview([]), en)).toBeNull()
    expect(zh('review.nothing')).toBe('没有新的可学内容。')
  })
})

const settings: TriggerSettings = { enabled: true, memoryNudgeInterval: 2, skillNudgeInterval: 2, memoryAvailable: true, skillsAvailable: true }
const call = (name: string, ok = true) => ({ name, ok, arguments: '{}' })

describe('review reasons', () => {
  it('knows every reason the learning loop gives, and words each in Chinese', () => {
    const busyTurn = {
      sessionId: 's', turnId: 't', reason: 'completed', answer: 'Done.', iterations: 4,
      userText: "No, that's wrong. I prefer pnpm over npm.",
      toolCalls: [call('run_command', false), call('run_command'), call('read_file'), call('read_file'), call('edit_file')],
      usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0 }
    } as unknown as TurnSummary
    const warmedUp = { ...emptyCounters(), turnsSinceMemory: 5, itersSinceSkill: 5 }
    const { reasons } = evaluateTurn(warmedUp, busyTurn, settings)
    expect(reasons.length).toBeGreaterThanOrEqual(6)
    const others: ReviewReason[] = [
      { code: 'requested' },
      { code: 'compression', part: null, parts: null },
      { code: 'compression', part: 2, parts: 3 }
    ]
    for (const reason of [...reasons, ...others]) {
      const label = JSON.stringify(reason)
      expect(describeReviewReason(reason, en), label).toBeTruthy()
      expect(reasonForModel(reason), label).toBeTruthy()
      expect(english(describeReviewReason(reason, zh), 'run_command'), label).toEqual([])
    }
  })

  it('reads the English sentences older review_runs rows hold back into their codes', () => {
    const all: ReviewReason[] = [
      { code: 'memory_interval', count: 12 },
      { code: 'skill_interval', count: 10 },
      { code: 'long_task', count: 5 },
      { code: 'error_overcome', tool: 'run_command' },
      { code: 'correction' },
      { code: 'preference' },
      { code: 'compression', part: null, parts: null },
      { code: 'compression', part: 2, parts: 3 },
      { code: 'requested' }
    ]
    // What older rows hold: the reasons as the review model was told them before they became hints.
    const older = [
      '12 turns since the last memory write',
      '10 tool iterations since the last skill write',
      'long task: 5 tool calls',
      'error overcome: run_command failed, then the task went on',
      'the user corrected the assistant',
      'the user stated a preference',
      'before compression: the oldest part of the conversation is being condensed',
      'before compression: the oldest part of the conversation is being condensed (part 2 of 3)',
      'requested by the user'
    ]
    older.forEach((text, index) => expect(parseStoredReason(text)).toEqual(all[index]))
    expect(parseStoredReason({ code: 'preference' })).toEqual({ code: 'preference' })
  })

  it('shows an old reason it does not know as written', () => {
    const unknown = parseStoredReason('a brand new reason')
    expect(unknown).toEqual({ code: 'other', text: 'a brand new reason' })
    expect(describeReviewReason(unknown, zh)).toBe('a brand new reason')
  })
})

describe('paused learning', () => {
  it('says why in the user\'s language, with the latest error as it came', () => {
    const reason = { code: 'failures' as const, count: 3, latest: 'The review took longer than its 180 s budget.' }
    expect(describePauseReason(reason, en)).toMatch(/last 3 reviews crashed or ran out of time \(latest: The review took longer/)
    expect(english(describePauseReason(reason, zh), reason.latest, 'Cairn')).toEqual([])
    expect(english(describePauseReason({ code: 'requested' }, zh), '')).toEqual([])
  })
})

describe('connection tests', () => {
  const base = { baseURL: 'https://api.example.com/v1', models: ['a', 'b'], model: 'gpt-9', status: null }

  it('words each outcome from its code and data', () => {
    expect(describeConnectionTest({ ...base, ok: true, code: 'connected', model: null }, en)).toBe('Connected to https://api.example.com/v1: 2 models available.')
    expect(describeConnectionTest({ ...base, ok: false, code: 'model_missing' }, en)).toMatch(/"gpt-9" is not among them/)
    expect(describeConnectionTest({ ...base, ok: false, code: 'auth', models: [], status: 401 }, en)).toMatch(/rejected the API key \(HTTP 401\)/)
    const chinese = describeConnectionTest({ ...base, ok: false, code: 'unreachable', models: [] }, zh)
    expect(english(chinese, base.baseURL)).toEqual([])
  })
})
