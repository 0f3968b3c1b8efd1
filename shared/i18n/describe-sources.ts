import { mcpClientOf, type FixedLedgerSource, type LedgerSource } from '../ledger-names'
import type { MessageKey, Translate } from './index'

/** The badge word for each of Cairn's own sources. */
export const ledgerSourceKeys: Record<FixedLedgerSource, MessageKey> = {
  agent: 'source.agent',
  review: 'source.review',
  user: 'source.user',
  import: 'source.import',
  sync: 'source.sync',
  revert: 'source.revert'
}

/** How provenance reads for each of Cairn's own sources ("Saved in a chat {when}"). */
const memoryInfoKeys: Record<FixedLedgerSource, MessageKey> = {
  agent: 'memory.info.agent',
  review: 'memory.info.review',
  user: 'memory.info.user',
  import: 'memory.info.import',
  sync: 'memory.info.sync',
  revert: 'memory.info.revert'
}

/** A sanitised MCP client name as people write it: `claude-code` → `Claude Code`. */
export function mcpClientLabel(client: string): string {
  return client
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ')
}

/**
 * Who made a ledger change, as its badge says: `Review`, `Claude Code (MCP)` for another agent over
 * MCP, `Sync · laptop` for a change a sync brought from another device (its row's `meta.device`).
 */
export function describeLedgerSource(source: LedgerSource, t: Translate, device?: string): string {
  const client = mcpClientOf(source)
  if (client !== null) return t('source.mcp', { client: mcpClientLabel(client) })
  if (source === 'sync' && device) return t('source.syncFrom', { device })
  return t(ledgerSourceKeys[source as FixedLedgerSource] ?? 'source.user')
}

/** Who last wrote a memory entry and when: "Saved in a chat 2 days ago", "Saved by Claude Code (MCP) today", "Synced from laptop today". */
export function describeMemorySource(source: LedgerSource, when: string, t: Translate, device?: string): string {
  const client = mcpClientOf(source)
  if (client !== null) return t('memory.info.mcp', { client: mcpClientLabel(client), when })
  if (source === 'sync' && device) return t('memory.info.syncFrom', { device, when })
  return t(memoryInfoKeys[source as FixedLedgerSource] ?? 'memory.info.user', { when })
}
