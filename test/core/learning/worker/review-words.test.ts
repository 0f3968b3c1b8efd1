import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { translator } from '../../../../shared/i18n'
import { describeReviewReason } from '../../../../shared/i18n/describe'
import { describeLearned, describeLearnedOrNothing } from '../../../../shared/i18n/describe-learning'
import { normalizeLedgerMeta, type LedgerEntry } from '../../../../shared/ledger'
import { emptyReviewSummary, reviewSummarySchema } from '../../../../shared/review-outcome'
import { openStateDb, type StateDb } from '../../../../electron/core/db/state-db'
import { reviewUserMessage } from '../../../../electron/core/learning/worker/review-prompts'
import { DIGEST_HEADING, NEW_PART_HEADING, toReviewMessages } from '../../../../electron/core/learning/host/review-snapshot'
import { changeGist, summarizeReview } from '../../../../electron/core/staging/review-summary'
import { SessionStore } from '../../../../electron/core/sessions'

const SKILL_V1 = `---
name: node-project-setup
description: Set up a new Node.js project with the user's package manager and a test script.
---
# Node project setup
1. Create the folder and run \`git init\`.
2. Install: \`npm install\`.
3. Add a \`test\` script.
`
const SKILL_V2 = SKILL_V1.replace('2. Install: `npm install`.', '2. Install with pnpm: `pnpm install` (the user never uses npm).')

function row(id: number, kind: LedgerEntry['kind'], target: string, before: string | null, after: string | null): LedgerEntry {
  const base = { id, at: new Date().toISOString(), kind, target, source: 'review', sessionId: null, reviewId: 'r', before, after, revertedBy: null }
  return { ...base, meta: normalizeLedgerMeta(kind, target, {}) } as LedgerEntry
}

describe('what a review learned, in words', () => {
  it('keeps the entries it wrote and removed, a new skill with its description, a patch with its gist', () => {
    const long = 'User works on the Cairn desktop app ' + 'and its many parts '.repeat(20)
    const summary = summarizeReview([
      row(1, 'memory.add', 'memories/USER.md', null, 'User uses pnpm, never npm.'),
      row(2, 'memory.replace', 'memories/MEMORY.md', 'The CI runs on Node 18.', 'The CI runs on Node 22.'),
      row(3, 'memory.remove', 'memories/USER.md', 'User prefers yarn.', null),
      row(4, 'memory.add', 'memories/USER.md', null, long),
      row(5, 'skill.create', 'skills/dev/node-project-setup/SKILL.md', null, SKILL_V1),
      row(6, 'skill.patch', 'skills/dev/deploy/SKILL.md', SKILL_V1.replace(/node-project-setup/g, 'deploy'), SKILL_V2.replace(/node-project-setup/g, 'deploy'))
    ])
    expect(reviewSummarySchema.parse(summary)).toEqual(summary)
    expect(summary.remembered).toEqual([
      { store: 'user', text: 'User uses pnpm, never npm.' },
      { store: 'memory', text: 'The CI runs on Node 22.' },
      { store: 'user', text: expect.stringMatching(/^User works on the Cairn desktop app .*…$/) }
    ])
    expect(summary.remembered![2].text.length).toBeLessThanOrEqual(120)
    expect(summary.forgotten).toEqual([{ store: 'user', text: 'User prefers yarn.' }])
    expect(summary.skills).toEqual([
      { name: 'node-project-setup', verb: 'created', description: "Set up a new Node.js project with the user's package manager and a test script." },
      { name: 'deploy', verb: 'updated', gist: { added: '2. Install with pnpm: `pnpm install` (the user never uses npm).', removed: '2. Install: `npm install`.' } }
    ])

    const en = describeLearned(summary, translator('en'))
    expect(en).toEqual([
      'Remembered: User uses pnpm, never npm.',
      'Remembered: The CI runs on Node 22.',
      expect.stringMatching(/^Remembered: User works on the Cairn/),
      'Forgot: User prefers yarn.',
      "New skill node-project-setup: Set up a new Node.js project with the user's package manager and a test script.",
      'Skill deploy: 2. Install with pnpm: `pnpm install` (the user never uses npm).'
    ])
    expect(describeLearned(summary, translator('zh-CN'))[0]).toBe('记住了：User uses pnpm, never npm.')
  })

  it('a patch that only removes says what went; a summary from before words still names what changed', () => {
    expect(changeGist('a\n- step one\n- step two\nz', 'a\n- step one\nz')).toEqual({ added: null, removed: '- step two' })
    expect(changeGist('same', 'same')).toBeNull()
    const removedOnly = { ...emptyReviewSummary(), saved: true, skills: [{ name: 'deploy', verb: 'updated' as const, gist: { added: null, removed: '- step two' } }] }
    expect(describeLearned(removedOnly, translator('en'))).toEqual(['Skill deploy: removed "- step two"'])
    const old = { saved: true, memory: { added: 0, replaced: 0, removed: 0 }, user: { added: 1, replaced: 0, removed: 0 }, skills: [{ name: 'x', verb: 'updated' as const }] }
    expect(describeLearned(old, translator('en'))).toEqual(['User profile updated', 'Skill x updated'])
  })

  it('a review that found nothing says so', () => {
    expect(describeLearned(emptyReviewSummary(), translator('en'))).toEqual([])
    expect(describeLearnedOrNothing(emptyReviewSummary(), translator('en'))).toEqual(['Nothing worth keeping.'])
    expect(describeLearnedOrNothing(emptyReviewSummary(), translator('zh-CN'))).toEqual(['没有值得保留的内容。'])
  })

  it('words why a conversation was reviewed when it ended, for the model and for people', () => {
    const reason = { code: 'session_end' as const, cause: 'idle' as const, turns: 3 }
    expect(describeReviewReason(reason, translator('en'))).toBe('the conversation went quiet (3 turns not reviewed yet)')
    expect(describeReviewReason({ ...reason, cause: 'new_conversation', turns: 1 }, translator('en'))).toBe('a new conversation started (1 turn not reviewed yet)')
    expect(describeReviewReason(reason, translator('zh-CN'))).toBe('对话已停下（3 轮尚未回顾）')
    expect(reviewUserMessage({ reasons: [reason], messages: [], skillsUsed: [] })).toMatch(/Why this review runs \(automatic hints, often wrong; the transcript decides\): the conversation went idle with 3 user turns no review has seen\./)
  })
})

describe('the transcript of a conversation reviewed before', () => {
  let dir: string
  let db: StateDb
  let sessions: SessionStore
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-words-'))
    db = openStateDb(join(dir, 'state.db'))
    sessions = new SessionStore(db)
  })
  afterEach(() => {
    db.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('gives the reviewed turns as a short digest and the new ones whole', () => {
    const id = sessions.create({ source: 'cli' }).id
    sessions.append(id, { role: 'user', content: 'Set up the project. ' + 'context '.repeat(200) })
    sessions.append(id, { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'run_command', arguments: '{"command":"git init"}' }] })
    sessions.append(id, { role: 'tool', content: 'Initialized empty Git repository', toolCallId: 'c1', toolName: 'run_command' })
    const reviewed = sessions.append(id, { role: 'assistant', content: 'Done: the repository is ready.' })
    sessions.append(id, { role: 'user', content: 'Now add a test script, with pnpm.' })
    sessions.append(id, { role: 'assistant', content: 'Added "test": "vitest" to package.json.' })
    const records = sessions.messages(id)

    const messages = toReviewMessages(records, 60_000, reviewed.id)
    expect(messages.map((m) => m.role)).toEqual(['heading', 'summary', 'heading', 'user', 'assistant'])
    expect(messages[0].content).toBe(DIGEST_HEADING)
    expect(messages[1].content.split('\n')).toEqual([
      expect.stringMatching(/^USER: Set up the project\. context .*…$/),
      'ASSISTANT[tools: run_command]',
      'ASSISTANT: Done: the repository is ready.'
    ])
    expect(messages[1].content.split('\n')[0].length).toBeLessThanOrEqual(306)
    expect(messages[1].content).not.toMatch(/Initialized empty Git repository/) // tool results stay out of the digest
    expect(messages[2].content).toBe(NEW_PART_HEADING)
    expect(messages[3].content).toBe('Now add a test script, with pnpm.')
    // Nothing reviewed before, or nothing new: the plain transcript.
    expect(toReviewMessages(records, 60_000, 0)).toEqual(toReviewMessages(records))
    expect(toReviewMessages(records, 60_000, records.at(-1)!.id)).toEqual(toReviewMessages(records))
  })
})
