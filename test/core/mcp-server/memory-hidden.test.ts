import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ProposalStore } from '../../../electron/core/ledger/proposals'
import { setEntryHidden } from '../../../electron/core/memory/entry-hiding'
import { callTool, openMcpFixture, type McpFixture } from './mcp-fixture'

let fx: McpFixture
beforeEach(async () => {
  fx = await openMcpFixture()
  await fx.core.memory.add('user', SECRET, { write: { source: 'user' } })
  await fx.core.memory.add('user', 'Name: Ada', { write: { source: 'user' } })
  setEntryHidden(fx.core, 'user', SECRET, true)
})
afterEach(async () => {
  await fx.close()
})

const SECRET = 'User is in debt after the bakery closed down'

describe('an entry the user hid, served over MCP', () => {
  it('is in neither memory_read nor the memory snapshot resource', async () => {
    const client = await fx.connect('Cursor')
    const read = await callTool(client, 'memory_read', {})
    expect(read.text).not.toContain('bakery')
    expect(read.text).toContain('Name: Ada')
    const snapshot = await client.readResource({ uri: 'memory://snapshot' })
    const text = (snapshot.contents[0] as { text: string }).text
    expect(text).not.toContain('bakery')
    expect(text).toContain('Name: Ada')
  })

  for (const mode of ['auto', 'ask'] as const) {
    it(`refuses another agent's add of it in other words (learning ${mode}), without naming it or filing a proposal`, async () => {
      await fx.core.config.update({ learning: { mode } })
      const client = await fx.connect('Cursor')
      const answer = await callTool(client, 'memory_add', { target: 'user', content: 'The user owes money since their bakery closed' })
      expect(answer.json).toMatchObject({ success: false })
      expect(answer.json.error).toMatch(/asked Cairn not to bring this subject up/)
      expect(answer.text).not.toContain('in debt')
      expect(answer.json.similar_entry).toBeUndefined()
      expect(new ProposalStore(fx.core.db).list({ states: ['pending'] })).toEqual([])
      expect(fx.core.memory.read('user').entries).toEqual([SECRET, 'Name: Ada'])
    })
  }
})
