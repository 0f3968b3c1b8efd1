import { describe, expect, it } from 'vitest'
import type { TurnSummary } from '../../../../electron/core/agent/agent-session'
import {
  detectUserSignals,
  emptyCounters,
  evaluateTurn,
  restoreSessionCounters,
  type LearningCounters,
  type TriggerSettings
} from '../../../../electron/core/learning/host/triggers'

const settings: TriggerSettings = { enabled: true, memoryNudgeInterval: 10, skillNudgeInterval: 10, memoryAvailable: true, skillsAvailable: true }

function turn(overrides: Partial<TurnSummary> = {}): TurnSummary {
  return {
    sessionId: 's',
    turnId: 't',
    reason: 'completed',
    userText: 'what is the weather like on mars',
    answer: 'Cold.',
    iterations: 1,
    toolCalls: [],
    usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0 },
    ...overrides
  }
}

const call = (name: string, ok = true, args: object = {}) => ({ name, ok, arguments: JSON.stringify(args) })

function run(turns: TurnSummary[], start: LearningCounters = emptyCounters(), s = settings) {
  let counters = start
  const decisions = turns.map((t) => {
    const d = evaluateTurn(counters, t, s)
    counters = d.counters
    return d
  })
  return { counters, decisions }
}

describe('counters (Hermes semantics)', () => {
  it('asks for a memory review after memoryNudgeInterval user turns, then starts over', () => {
    const { decisions, counters } = run(Array.from({ length: 10 }, () => turn()))
    expect(decisions.slice(0, 9).every((d) => d.kinds.length === 0)).toBe(true)
    expect(decisions[9].kinds).toEqual(['memory'])
    expect(decisions[9].reasons).toEqual([{ code: 'memory_interval', count: 10 }])
    expect(counters).toEqual({ userTurns: 10, turnsSinceMemory: 0, itersSinceSkill: 0 })
  })

  it('counts tool iterations across turns for the skill review', () => {
    // 4 tool calls over 4 iterations + the final answer = 4 tool iterations per turn.
    const busy = turn({ iterations: 5, toolCalls: [call('read_file'), call('read_file'), call('list_dir'), call('read_file')] })
    const { decisions } = run([busy, busy, busy])
    expect(decisions[0].kinds).toEqual([])
    expect(decisions[1].kinds).toEqual([])
    expect(decisions[2].kinds).toEqual(['skills'])
    expect(decisions[2].reasons[0]).toEqual({ code: 'skill_interval', count: 12 })
  })

  it('resets a counter when the model uses the tool itself', () => {
    const start = { userTurns: 9, turnsSinceMemory: 9, itersSinceSkill: 9 }
    const d = evaluateTurn(
      start,
      turn({ iterations: 3, toolCalls: [call('memory', true, { action: 'add', target: 'user', content: 'x' }), call('skill_manage', true, { action: 'patch' })] }),
      settings
    )
    expect(d.counters).toEqual({ userTurns: 10, turnsSinceMemory: 0, itersSinceSkill: 0 })
    expect(d.kinds).toEqual([])
  })

  it('does not count a memory read as a memory write', () => {
    const d = evaluateTurn({ userTurns: 9, turnsSinceMemory: 9, itersSinceSkill: 0 }, turn({ iterations: 2, toolCalls: [call('memory', true, { action: 'read', target: 'user' })] }), settings)
    expect(d.kinds).toEqual(['memory'])
  })

  it('does not start a memory review in a turn where the model already saved memory', () => {
    const d = evaluateTurn(
      emptyCounters(),
      turn({ userText: 'I prefer tabs over spaces', iterations: 2, toolCalls: [call('memory', true, { action: 'add', target: 'user', content: 'Prefers tabs' })] }),
      settings
    )
    expect(d.kinds).toEqual([])
  })

  it('keeps counting but never reviews a cancelled or failed turn', () => {
    for (const reason of ['cancelled', 'failed'] as const) {
      const d = evaluateTurn({ userTurns: 9, turnsSinceMemory: 9, itersSinceSkill: 0 }, turn({ reason, userText: 'no, that is wrong' }), settings)
      expect(d.kinds).toEqual([])
      expect(d.counters.turnsSinceMemory).toBe(10) // due, and it will fire on the next completed turn
    }
  })

  it('does nothing while learning is paused, and skips kinds whose tools are off', () => {
    expect(evaluateTurn({ userTurns: 9, turnsSinceMemory: 9, itersSinceSkill: 0 }, turn(), { ...settings, enabled: false }).kinds).toEqual([])
    const noMemory = evaluateTurn(emptyCounters(), turn({ userText: "no, that's wrong: use pnpm" }), { ...settings, memoryAvailable: false })
    expect(noMemory.kinds).toEqual(['skills'])
    expect(noMemory.counters.turnsSinceMemory).toBe(0)
  })

  it('never reviews with an interval of 0 from timers alone', () => {
    const s = { ...settings, memoryNudgeInterval: 0, skillNudgeInterval: 0 }
    const { decisions } = run(Array.from({ length: 30 }, () => turn({ iterations: 3, toolCalls: [call('read_file'), call('read_file')] })), emptyCounters(), s)
    expect(decisions.every((d) => d.kinds.length === 0)).toBe(true)
  })
})

describe('signals that trigger early', () => {
  it('a long tool chain (5 or more calls) starts a skill review', () => {
    const d = evaluateTurn(emptyCounters(), turn({ iterations: 6, toolCalls: Array.from({ length: 5 }, () => call('run_command')) }), settings)
    expect(d.kinds).toEqual(['skills'])
    expect(d.reasons).toContainEqual({ code: 'long_task', count: 5 })
  })

  it('an error that was overcome starts a skill review; an error left standing does not', () => {
    const overcome = evaluateTurn(emptyCounters(), turn({ iterations: 3, toolCalls: [call('run_command', false), call('run_command', true)] }), settings)
    expect(overcome.kinds).toEqual(['skills'])
    expect(overcome.reasons).toContainEqual({ code: 'error_overcome', tool: 'run_command' })
    const stuck = evaluateTurn(emptyCounters(), turn({ iterations: 2, toolCalls: [call('run_command', true), call('run_command', false)] }), settings)
    expect(stuck.kinds).toEqual([])
  })

  it('a correction starts a memory and skill review; a preference a memory review', () => {
    expect(evaluateTurn(emptyCounters(), turn({ userText: "No, that's not what I asked. Use the staging cluster." }), settings).kinds).toEqual(['memory', 'skills'])
    expect(evaluateTurn(emptyCounters(), turn({ userText: 'I prefer answers in bullet points.' }), settings).kinds).toEqual(['memory'])
  })

  it.each([
    ["no, that's wrong", true],
    ['Nope: the port is 8080', true],
    ["that's not what I meant", true],
    ['actually, use pnpm instead of npm', true],
    ["don't use sudo for this", true],
    ['that did not work', true],
    ['不对，应该用 yarn', true],
    ['Is there no way to do this?', false],
    ['What do you know about the wrong-way concurrency bug?', false],
    ['Please explain how DNS works', false]
  ])('correction detection: %s → %s', (text, expected) => {
    expect(detectUserSignals(text as string).correction).toBe(expected)
  })

  it.each([
    ['I prefer short answers', true],
    ["I'd rather you used TypeScript", true],
    ['Please always answer in English', true],
    ['From now on, put code in fenced blocks', true],
    ['My name is Ada', true],
    ["I'm a backend developer", true],
    ['My editor is Neovim', true],
    ['我更喜欢简短的回答', true],
    ['It always fails on Mondays', false],
    ['Do you like pizza?', false]
  ])('preference detection: %s → %s', (text, expected) => {
    expect(detectUserSignals(text as string).preference).toBe(expected)
  })
})

describe('restoring a session\'s counters on resume', () => {
  it('uses the counters stored with the session (the memory counter is the data home\'s, not the session\'s)', () => {
    expect(restoreSessionCounters({ userTurns: 7, turnsSinceMemory: 3, itersSinceSkill: 4, reviewedThrough: 12 }, 99)).toEqual({ userTurns: 7, itersSinceSkill: 4 })
  })

  it('rebuilds them from the history when none are stored (Hermes hydration)', () => {
    expect(restoreSessionCounters(undefined, 0)).toEqual({ userTurns: 0, itersSinceSkill: 0 })
    expect(restoreSessionCounters(undefined, 13)).toEqual({ userTurns: 13, itersSinceSkill: 0 })
    expect(restoreSessionCounters({ userTurns: 'x' }, 13)).toEqual({ userTurns: 13, itersSinceSkill: 0 })
  })
})
