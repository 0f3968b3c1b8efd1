import type { Chain } from './rule-engine'

export type ThreatScope = 'all' | 'context' | 'strict'

/**
 * What a finding is about. `remote_code` is a command that fetches and runs code (`curl … | sh`);
 * `approval_bypass` an instruction to skip the user's approvals or the sandbox.
 */
export type ThreatCategory =
  | 'injection'
  | 'role_hijack'
  | 'c2'
  | 'exfiltration'
  | 'persistence'
  | 'secret'
  | 'invisible'
  | 'remote_code'
  | 'approval_bypass'

export interface ThreatRule {
  readonly id: string
  readonly category: ThreatCategory
  readonly scope: ThreatScope
  readonly chain: Chain
}

export function rule(id: string, category: ThreatCategory, scope: ThreatScope, ruleChain: Chain): ThreatRule {
  return { id, category, scope, chain: ruleChain }
}
