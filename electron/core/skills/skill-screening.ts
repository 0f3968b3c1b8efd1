import { findInvisibleCharacters, invisibleTextMessage } from '../security/invisible-text'
import { scanForThreats, type ThreatCategory, type ThreatFinding } from '../security/threats'

/**
 * Threat categories that refuse a skill write and keep a skill in a read-only folder out of the index;
 * the others (exfiltration, secrets, persistence, …) only warn: deployment skills name tokens.
 */
export const BLOCKING: ReadonlySet<ThreatCategory> = new Set(['injection', 'role_hijack', 'c2', 'invisible'])

/**
 * What keeps a read-only folder's skill out of the index: instructions aimed at the agent (injection,
 * role hijack, skipping approvals). C2 words alone are not: a security skill names the frameworks it
 * defends against ("no Metasploit, Cobalt Strike"); those load with a warning.
 */
const SKIPS_READ_ONLY: ReadonlySet<ThreatCategory> = new Set(['injection', 'role_hijack', 'approval_bypass', 'invisible'])

/** What loading a SKILL.md decides: skip it (the diagnostic's reason), or load it with these warnings. */
export type SkillScreening = { skip: string } | { skip: null; warnings: string[] }

/**
 * Every string of the parsed front matter, one a line. YAML escapes (`"\u0049gnore"`, `"\U000E0049"`)
 * decode only when parsed, so the raw file does not show what reaches the prompt; this does.
 */
function decodedStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value)
  else if (Array.isArray(value)) for (const item of value) decodedStrings(item, out)
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) decodedStrings(item, out)
  return out
}

function describe(findings: readonly ThreatFinding[]): string {
  return [...new Set(findings.map((finding) => `${finding.id} (${finding.category})`))].join(', ')
}

/** Warnings for text that looks like an attack, for a skill that still loads. */
function warningsFor(findings: readonly ThreatFinding[]): string[] {
  if (findings.length === 0) return []
  return [`content matches threat patterns: ${describe(findings)}; read it with care before following it`]
}

/** Findings of the raw text, then those only the decoded front matter shows, each rule id once. */
function findingsOf(text: string, decoded: string): ThreatFinding[] {
  const found = scanForThreats(text, 'context')
  const seen = new Set(found.map((finding) => finding.id))
  for (const finding of decoded ? scanForThreats(decoded, 'context') : []) {
    if (!seen.has(finding.id)) found.push(finding)
    seen.add(finding.id)
  }
  return found
}

/**
 * Decides whether a parsed SKILL.md (`text` without its BOM, `frontmatter` as parsed) may enter the
 * index. In every root, invisible characters skip it (they can spell instructions no reader sees). In
 * a read-only root (extra folders, team libraries), text that Cairn never scanned on its way in, an
 * instruction aimed at the agent ({@link SKIPS_READ_ONLY}) skips it too: its description would reach every
 * conversation's system prompt and its body the model through skill_view. Anything else the scan
 * finds, and everything it finds in the data home (whose skills come through the scanned write
 * path), loads with a warning.
 */
export function screenSkill(text: string, frontmatter: Record<string, unknown>, readOnly: boolean): SkillScreening {
  const decoded = decodedStrings(frontmatter).join('\n')
  const hidden = findInvisibleCharacters(text)
  if (hidden.length > 0) return { skip: invisibleTextMessage(hidden) }
  const hiddenInFrontmatter = findInvisibleCharacters(decoded)
  if (hiddenInFrontmatter.length > 0) return { skip: `front matter, once its escapes are decoded: ${invisibleTextMessage(hiddenInFrontmatter)}` }
  const findings = findingsOf(text, decoded)
  if (!readOnly) return { skip: null, warnings: warningsFor(findings) }
  const blocking = findings.filter((finding) => SKIPS_READ_ONLY.has(finding.category))
  if (blocking.length > 0) {
    return {
      skip:
        `blocked by the security scan: content matches ${describe(blocking)}. A skill in a read-only folder with such text is ` +
        'left out of the skills index, the hints and skill_view; remove that text where the skill comes from ' +
        '(Cairn never changes read-only folders) and it loads again'
    }
  }
  return { skip: null, warnings: warningsFor(findings) }
}
