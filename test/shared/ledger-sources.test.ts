import { describe, expect, it } from 'vitest'
import { translator } from '../../shared/i18n'
import { describeLedgerSource, describeMemorySource } from '../../shared/i18n/describe-sources'
import { isLedgerSource, ledgerEntrySchema, mcpClientOf, mcpSource } from '../../shared/ledger'

const row = (source: string) => ({
  id: 1,
  at: '2026-01-01T00:00:00.000Z',
  kind: 'memory.add',
  target: 'memories/MEMORY.md',
  source,
  sessionId: null,
  reviewId: null,
  before: null,
  after: 'x',
  revertedBy: null,
  meta: { store: 'memory' }
})

describe('ledger sources for writes over MCP', () => {
  it('names a client by its sanitised clientInfo name', () => {
    expect(mcpSource('Claude Code')).toBe('mcp:claude-code')
    expect(mcpSource('claude-ai')).toBe('mcp:claude-ai')
    expect(mcpSource('  Cursor / v1.2 ')).toBe('mcp:cursor-v1-2')
    expect(mcpSource('Ünïcode')).toBe('mcp:unicode')
    expect(mcpSource('')).toBe('mcp:unknown')
    expect(mcpSource(undefined)).toBe('mcp:unknown')
    expect(mcpSource('x'.repeat(200)).length).toBeLessThanOrEqual('mcp:'.length + 40)
    expect(mcpClientOf('mcp:claude-code')).toBe('claude-code')
    expect(mcpClientOf('review')).toBeNull()
    expect(mcpClientOf('mcp:Not Sanitised')).toBeNull()
  })

  it('keeps old rows readable and accepts mcp:<client>, nothing else', () => {
    for (const source of ['agent', 'review', 'user', 'import', 'revert', 'mcp:claude-code']) {
      expect(isLedgerSource(source)).toBe(true)
      expect(ledgerEntrySchema.safeParse(row(source)).success).toBe(true)
    }
    for (const source of ['mcp:', 'mcp:Bad Name', 'robot']) expect(ledgerEntrySchema.safeParse(row(source)).success).toBe(false)
  })

  it('words the source in English and Chinese', () => {
    const en = translator('en')
    const zh = translator('zh-CN')
    expect(describeLedgerSource('mcp:claude-code', en)).toBe('Claude Code (MCP)')
    expect(describeLedgerSource('mcp:claude-code', zh)).toBe('Claude Code（MCP）')
    expect(describeLedgerSource('review', en)).toBe('Review')
    expect(describeMemorySource('mcp:cursor', 'today', en)).toBe('Saved by Cursor (MCP) today')
    expect(describeMemorySource('agent', 'today', en)).toBe('Saved in a chat today')
    expect(describeMemorySource('mcp:cursor', '今天', zh)).toContain('Cursor（MCP）')
  })
})
