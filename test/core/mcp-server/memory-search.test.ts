import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { setEntryHidden } from '../../../electron/core/memory/entry-hiding'
import { callTool, openMcpFixture, type McpFixture } from './mcp-fixture'

let fx: McpFixture
beforeEach(async () => {
  fx = await openMcpFixture()
})
afterEach(async () => {
  await fx.close()
})

const USER = { source: 'user' } as const

describe('memory_search over MCP: the core and the archive, read-only', () => {
  it('finds core and archive entries with ids, where they live and dates; hidden and project entries stay out; nothing is marked recalled', async () => {
    await fx.core.memory.add('memory', 'The staging database is called heronfield.', { write: USER })
    await fx.core.memory.add('user', 'User keeps the heronfield backups on a NAS.', { write: USER })
    setEntryHidden(fx.core, 'user', 'NAS', true)
    const old = fx.core.archive.add({ target: 'memory', text: 'The heronfield database moved to Postgres 16 in March.', source: 'retired', write: USER })
    const quiet = fx.core.archive.add({ target: 'memory', text: 'The heronfield outage was the user\'s fault.', write: USER })
    fx.core.archive.add({ target: 'project', projectKey: 'shop-1234abcd', text: 'The heronfield schema lives in db/.', write: USER })
    if (old.kind !== 'added' || quiet.kind !== 'added') throw new Error('not archived')
    fx.core.archive.setHidden(quiet.entry.id, true)

    const client = await fx.connect('Cursor')
    const tools = await client.listTools()
    expect(tools.tools.find((tool) => tool.name === 'memory_search')?.annotations?.readOnlyHint).toBe(true)
    const answer = await callTool(client, 'memory_search', { query: 'heronfield database' })
    expect(answer.isError).toBe(false)
    expect(answer.json.results.map((hit: { id: string; where: string; text: string }) => [hit.id, hit.where, hit.text])).toEqual([
      ['memory:1', 'core', 'The staging database is called heronfield.'],
      [`archive:${old.entry.id}`, 'archive', 'The heronfield database moved to Postgres 16 in March.']
    ])
    expect(answer.json.results[1]).toMatchObject({ target: 'memory', source: 'retired', added: expect.any(String) })
    expect(answer.text).not.toMatch(/NAS|fault|schema/)
    expect(fx.core.archive.get(old.entry.id)?.lastRecalledAt).toBeNull()
    // Another agent's search never writes: no ledger row, no proposal.
    expect(fx.core.ledger.list({ limit: 50 }).filter((row) => row.source.startsWith('mcp:'))).toEqual([])
  })

  it('refuses project memory in words, and memory_read of every store names the archive\'s size', async () => {
    fx.core.archive.add({ target: 'user', text: 'User once lived in Porto.', write: USER })
    fx.core.archive.add({ target: 'memory', text: 'The old CI ran on Jenkins.', write: USER })
    const client = await fx.connect('Cursor')
    const project = await callTool(client, 'memory_search', { query: 'Porto', target: 'project' })
    expect(project.json).toMatchObject({ success: false, error: expect.stringMatching(/workspace/i) })
    const read = await callTool(client, 'memory_read', {})
    expect(read.json.archive).toMatchObject({ entries: 2 })
    expect(read.text).not.toContain('Porto')
  })
})
