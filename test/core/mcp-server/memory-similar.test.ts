import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ProposalStore } from '../../../electron/core/ledger/proposals'
import { memoryEntryDates } from '../../../electron/core/memory/entry-history'
import { callTool, openMcpFixture, type McpFixture } from './mcp-fixture'

let fx: McpFixture
beforeEach(async () => {
  fx = await openMcpFixture()
})
afterEach(async () => {
  await fx.close()
})

const PNPM = 'User prefers pnpm over npm for Node projects'

describe('memory_add from another agent beside an entry already there', () => {
  it('answers a reworded entry with the one it repeats and a memory_replace to make; no proposal is filed', async () => {
    await fx.core.memory.add('user', PNPM, { write: { source: 'user' } })
    const client = await fx.connect('Cursor')
    const answer = await callTool(client, 'memory_add', { target: 'user', content: 'The user prefers using pnpm instead of npm for Node projects' })
    expect(answer.json).toMatchObject({
      success: false,
      similarity: 'near_duplicate',
      similar_entry: PNPM,
      suggested_call: { tool: 'memory_replace', target: 'user', old_text: PNPM }
    })
    expect(new ProposalStore(fx.core.db).list({ states: ['pending'] })).toEqual([])
    expect(memoryEntryDates(fx.core, 'user', [PNPM])[0].confirmedAt).not.toBeNull()
  })

  it('says an exact repeat is a duplicate', async () => {
    await fx.core.memory.add('user', PNPM, { write: { source: 'user' } })
    const client = await fx.connect('Cursor')
    const answer = await callTool(client, 'memory_add', { target: 'user', content: PNPM })
    expect(answer.json).toMatchObject({ success: true, proposed: false, duplicate: true })
  })
})
