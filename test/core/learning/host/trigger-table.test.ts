import { describe, expect, it } from 'vitest'
import type { TurnSummary } from '../../../../electron/core/agent/agent-session'
import { detectUserSignals, emptyCounters, evaluateTurn } from '../../../../electron/core/learning/host/triggers'
import { reasonForModel } from '../../../../electron/core/learning/worker/review-prompts'

/**
 * Which user messages and tool chains start an early review, as a table: the signals are hints, so the
 * broad ones that invite clutter (a bare "No,", "I like", any five calls) are narrowed, and the
 * reviewer is told they are often wrong.
 */

const CORRECTIONS: Array<[string, boolean]> = [
  ["No, that's wrong", true],
  ['No, I meant the staging server', true],
  ['No, use pnpm', true],
  ['Nope: the port is 8080', true],
  ["That's not what I asked for", true],
  ['As I said, the tests live in spec/', true],
  ['I meant the other file.', true],
  ['Wrong, it is in src/', true],
  ['I said to never use a plain --force push, use --force-with-lease.', true],
  ['I told you to use pnpm', true],
  ['不对，应该用 yarn', true],
  ['No, thanks', false],
  ['No, that will be all.', false],
  ['No. Thanks for the help!', false],
  ['I meant to ask about DNS too', false],
  ['I said hello to the new team today', false],
  ['I said to my manager that we would ship on Friday', false],
  ['Is there no way to do this?', false]
]

const PREFERENCES: Array<[string, boolean]> = [
  ['I prefer short answers', true],
  ['I usually use tabs, not spaces', true],
  ['I like it when you show the diff first', true],
  ['Please always answer in English', true],
  ['My editor is Neovim', true],
  ['I like tables', false],
  ['I like this answer', false],
  ['I love it, thanks!', false],
  ['CSV only for this task, please', false],
  ['Do you like pizza?', false]
]

describe('trigger table', () => {
  it.each(CORRECTIONS)('correction: %s → %s', (text, expected) => {
    expect(detectUserSignals(text).correction).toBe(expected)
  })

  it.each(PREFERENCES)('preference: %s → %s', (text, expected) => {
    expect(detectUserSignals(text).preference).toBe(expected)
  })

  const settings = { enabled: true, memoryNudgeInterval: 0, skillNudgeInterval: 0, memoryAvailable: true, skillsAvailable: true }
  const turn = (names: string[]): TurnSummary =>
    ({
      sessionId: 's',
      turnId: 't',
      reason: 'completed',
      answer: 'Done.',
      iterations: names.length + 1,
      userText: 'Go on.',
      toolCalls: names.map((name) => ({ name, arguments: '{}', ok: true })),
      usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0 }
    }) as unknown as TurnSummary

  it.each<[string, string[], boolean]>([
    ['five commands', ['run_command', 'run_command', 'run_command', 'run_command', 'run_command'], true],
    ['reads then an edit', ['read_file', 'read_file', 'search_files', 'read_file', 'edit_file'], true],
    ['five reads', ['read_file', 'read_file', 'list_dir', 'search_files', 'read_file'], false],
    ['four commands', ['run_command', 'run_command', 'run_command', 'run_command'], false]
  ])('a long task as a skill reason: %s → %s', (_label, names, expected) => {
    const decision = evaluateTurn(emptyCounters(), turn(names), settings)
    expect(decision.reasons.some((reason) => reason.code === 'long_task')).toBe(expected)
  })

  it('tells the reviewer the signals are hints that are often wrong, not facts', () => {
    expect(reasonForModel({ code: 'correction' })).toBe("a word pattern suggested the user may have corrected the assistant (often wrong: check the user's own words)")
    expect(reasonForModel({ code: 'preference' })).toMatch(/^a word pattern suggested the user may have stated a preference \(often wrong/)
    expect(reasonForModel({ code: 'long_task', count: 5 })).toMatch(/often there is not/)
    expect(reasonForModel({ code: 'memory_interval', count: 10 })).toMatch(/^a timer .* not a sign that anything is worth saving$/)
  })
})
