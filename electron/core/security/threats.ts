import { codePointLabel, findInvisibleCharacters, invisibleTextMessage, type InvisibleCharacter } from './invisible-text'
import { prepareMatchText } from './match-text'
import { ChainMatcher } from './rule-engine'
import { threatRules, type ThreatCategory, type ThreatRule, type ThreatScope } from './threat-rules'

export type { ThreatCategory, ThreatScope } from './threat-rules'

/**
 * Threat scanner for text that ends up in the system prompt: memory entries (on write and at load)
 * and agent-written skills. Scans the whole text (no size cut-off) in time linear in its length.
 */

export interface ThreatFinding {
  id: string
  category: ThreatCategory
  /** char offset in the scanned text */
  index: number
}

export interface ThreatPattern {
  readonly id: string
  readonly category: ThreatCategory
  /** The narrowest scan scope that runs it (scopes nest: all ⊂ context ⊂ strict). */
  readonly scope: ThreatScope
}

const scopeRank: Record<ThreatScope, number> = { all: 0, context: 1, strict: 2 }

/** Invisible findings are `invisible_unicode_U+E0049`: one per distinct character (see invisible-text.ts). */
const INVISIBLE_PREFIX = 'invisible_unicode_'

export const threatPatterns: readonly ThreatPattern[] = threatRules.map(({ id, category, scope }) => ({ id, category, scope }))
export const threatPatternIds: readonly string[] = threatPatterns.map((pattern) => pattern.id)

/** Ids of the rules a scan at `scope` runs. */
export function threatPatternIdsFor(scope: ThreatScope): readonly string[] {
  return rulesFor(scope).map((rule) => rule.id)
}

function rulesFor(scope: ThreatScope): readonly ThreatRule[] {
  if (!Object.hasOwn(scopeRank, scope)) {
    // words-ok: a caller bug (the scope is typed), for logs
    throw new Error(`Unknown threat scan scope '${String(scope)}'. Use 'all', 'context' or 'strict'.`)
  }
  return threatRules.filter((rule) => scopeRank[rule.scope] <= scopeRank[scope])
}

/**
 * Findings in `text`: first each distinct invisible character (by first position, checked on the raw
 * text because folding removes it; see invisible-text.ts for what counts), then each matching rule in
 * table order, once, at its leftmost match. Rules run on NFKC-folded, look-alike-folded, lower-cased
 * text. Throws on an unknown scope.
 */
export function scanForThreats(text: string, scope: ThreatScope): ThreatFinding[] {
  const rules = rulesFor(scope)
  if (text.length === 0) return []
  const findings: ThreatFinding[] = findInvisibleCharacters(text).map(({ codePoint, index }) => ({
    id: `${INVISIBLE_PREFIX}${codePointLabel(codePoint)}`,
    category: 'invisible',
    index
  }))
  const prepared = prepareMatchText(text)
  const matcher = new ChainMatcher(prepared.text)
  for (const rule of rules) {
    const at = matcher.firstMatch(rule.chain)
    if (at >= 0) findings.push({ id: rule.id, category: rule.category, index: prepared.toRawOffset(at) })
  }
  return findings
}

/** The user-facing reason for blocking, from the first finding; `null` when there is none. */
export function threatMessage(findings: readonly ThreatFinding[]): string | null {
  const first = findings[0]
  if (!first) return null
  if (first.category === 'invisible') return invisibleTextMessage(findings.flatMap(invisibleCharacterOf))
  return (
    `Blocked: content matches threat pattern '${first.id}'. ` +
    'Content is injected into the system prompt and must not contain injection or exfiltration payloads.'
  )
}

function invisibleCharacterOf(finding: ThreatFinding): InvisibleCharacter[] {
  if (finding.category !== 'invisible') return []
  return [{ codePoint: Number.parseInt(finding.id.slice(INVISIBLE_PREFIX.length + 2), 16), index: finding.index }]
}
