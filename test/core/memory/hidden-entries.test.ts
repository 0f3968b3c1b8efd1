import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { setEntryHidden } from '../../../electron/core/memory/entry-hiding'
import { agentFixture, type AgentFixture } from '../../helpers/agent-fixture'

let fx: AgentFixture | undefined
afterEach(async () => {
  await fx?.close()
  fx = undefined
})

const SECRET = "User's sister Anna is being treated for breast cancer"
const TEA = 'User drinks green tea in the afternoon'
const user = { write: { source: 'user' as const, sessionId: null } }

type RequestMessage = { role: string; content: string | null }

function toolResults(f: AgentFixture): string[] {
  const last = f.server.chatRequests().at(-1)!.body.messages as RequestMessage[]
  return last.filter((message) => message.role === 'tool').map((message) => message.content ?? '')
}

function userFile(f: AgentFixture): string {
  return readFileSync(join(f.home, 'memories', 'USER.md'), 'utf8')
}

async function withHiddenEntry(): Promise<AgentFixture> {
  fx = await agentFixture()
  await fx.core.memory.add('user', SECRET, user)
  await fx.core.memory.add('user', TEA, user)
  return fx
}

describe('an entry the user hid ("don\'t bring this up")', () => {
  it('leaves the next session\'s prompt but not the running one, which stays byte-identical; shown again, it is back next session', async () => {
    const f = await withHiddenEntry()
    const { session: running } = f.open()
    const frozen = running.systemPrompt
    expect(frozen).toContain(SECRET)

    expect(setEntryHidden(f.core, 'user', 'Anna', true)).toMatchObject({ ok: true, entry: SECRET, hidden: true, changed: true })
    f.server.enqueue({ text: 'Sure.' })
    await running.runTurn('Hello again').done
    expect(running.systemPrompt).toBe(frozen)
    expect((f.server.chatRequests().at(-1)!.body.messages as RequestMessage[])[0].content).toBe(frozen)

    const { session: next } = f.open()
    expect(next.systemPrompt).not.toContain('Anna')
    expect(next.systemPrompt).toContain(TEA)
    // Still in the file, and still counted in the usage the prompt shows.
    expect(userFile(f)).toContain(SECRET)
    const fullUsage = f.core.memory.read('user').usage.current
    expect(next.systemPrompt).toContain(`${fullUsage}/`)

    expect(setEntryHidden(f.core, 'user', SECRET, false)).toMatchObject({ ok: true, hidden: false, changed: true })
    expect(f.open().session.systemPrompt).toContain(SECRET)
  })

  it('is left out of the model\'s read, which still counts it in the usage', async () => {
    const f = await withHiddenEntry()
    setEntryHidden(f.core, 'user', SECRET, true)
    const { session } = f.open()
    f.server.enqueue({ toolCalls: [{ name: 'memory', arguments: { action: 'read', target: 'user' } }] }, { text: 'You drink green tea.' })
    await session.runTurn('What do you know about me?').done
    const [read] = toolResults(f)
    expect(read).not.toContain('Anna')
    const parsed = JSON.parse(read) as { entries: string[]; entry_count: number; usage: string }
    expect(parsed.entries).toEqual([TEA])
    expect(parsed.entry_count).toBe(1)
    expect(parsed.usage).toContain(`${f.core.memory.read('user').usage.current}/`)
  })

  it('refuses a model that re-adds it in other words, one blind call at a time, without naming it', async () => {
    const f = await withHiddenEntry()
    setEntryHidden(f.core, 'user', SECRET, true)
    const before = userFile(f)
    const { session } = f.open()
    // A model at its worst: one tool call per response, a new wording each time, never reading first.
    f.server.enqueue(
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: SECRET } }] },
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: "Anna, the user's sister, has breast cancer" } }] },
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: "The user's sister is undergoing cancer treatment" } }] },
      {
        toolCalls: [
          {
            name: 'memory',
            arguments: { action: 'add', target: 'user', operations: [{ action: 'add', content: 'User has a sister named Anna who has cancer' }, { action: 'add', content: 'User likes hiking' }] }
          }
        ]
      },
      { toolCalls: [{ name: 'memory', arguments: { action: 'replace', target: 'user', old_text: 'green tea', content: 'User drinks green tea; their sister Anna has breast cancer' } }] },
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'User prefers dark mode in every editor' } }] },
      { text: 'Noted.' }
    )
    await session.runTurn('My sister Anna is ill. Also, I like dark mode.').done
    const results = toolResults(f)
    expect(results).toHaveLength(6)
    for (const result of results.slice(0, 5)) {
      const parsed = JSON.parse(result) as { success: boolean; error?: string; similar_entry?: string }
      expect(parsed.success).toBe(false)
      expect(parsed.similar_entry).toBeUndefined()
      expect(result).not.toContain('being treated')
    }
    // The refusal reaches the model before the breaker takes over (three failures a turn).
    expect(results.slice(0, 3).every((result) => /asked Cairn not to bring this subject up/.test(result))).toBe(true)
    expect(JSON.parse(results[5])).toMatchObject({ success: true })
    const after = userFile(f)
    expect(after).toBe(`${before}\n§\nUser prefers dark mode in every editor`)
  })

  it('cannot be picked, changed or removed by a writer that was never shown it, and is not named when old_text is ambiguous', async () => {
    const f = await withHiddenEntry()
    await f.core.memory.add('user', 'User bikes to work', user)
    setEntryHidden(f.core, 'user', SECRET, true)
    const agent = { write: { source: 'agent' as const, sessionId: 's1' } }
    const ambiguous = await f.core.memory.replace('user', 'User', 'User drinks black tea', agent)
    expect(ambiguous).toMatchObject({ success: false, matches: [TEA, 'User bikes to work'] })
    const removal = await f.core.memory.remove('user', 'Anna', agent)
    expect(removal).toMatchObject({ success: false, current_entries: [TEA, 'User bikes to work'] })
    const rewrite = await f.core.memory.replace('user', 'sister', 'User has a sister', agent)
    expect(rewrite.success).toBe(false)
    const batch = await f.core.memory.applyBatch('user', [{ action: 'remove', old_text: 'breast cancer' }, { action: 'add', content: 'User likes hiking' }], agent)
    expect(batch.success).toBe(false)
    expect(JSON.stringify([ambiguous, removal, rewrite, batch])).not.toContain('being treated')
    expect(userFile(f)).toContain(SECRET)
    expect(f.core.memoryHidden.isHidden('user', SECRET)).toBe(true)
    // The user sees every entry and may change or remove it.
    expect((await f.core.memory.remove('user', 'Anna', user)).success).toBe(true)
  })

  it('stays hidden through a replace, whoever makes it, and its mark goes with it when it is removed', async () => {
    const f = await withHiddenEntry()
    setEntryHidden(f.core, 'user', SECRET, true)
    const reworded = "User's sister Anna is in remission from breast cancer"
    expect((await f.core.memory.replace('user', 'being treated', reworded, user)).success).toBe(true)
    expect(f.core.memoryHidden.isHidden('user', reworded)).toBe(true)
    expect(f.core.memoryHidden.isHidden('user', SECRET)).toBe(false)
    expect(f.open().session.systemPrompt).not.toContain('Anna')
    // A review's change the user approved in the Inbox (a proposal made before the hide) applies, and stays hidden.
    const approved = { write: { source: 'review' as const, reviewId: 'r1' }, ledgerMeta: { proposalId: 7 } }
    const later = "User's sister Anna finished her breast cancer treatment"
    expect((await f.core.memory.replace('user', reworded, later, approved, { force: true })).success).toBe(true)
    expect(f.core.memoryHidden.isHidden('user', later)).toBe(true)
    expect((await f.core.memory.replace('user', later, reworded, user)).success).toBe(true)

    expect((await f.core.memory.remove('user', 'remission', user)).success).toBe(true)
    expect(f.core.memoryHidden.list('user').size).toBe(0)
    // The same words added later are not silently hidden.
    await f.core.memory.add('user', reworded, user)
    expect(f.open().session.systemPrompt).toContain(reworded)
  })
})
