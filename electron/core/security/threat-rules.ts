import { approvalRules } from './approval-rules'
import { exfilRules } from './exfil-rules'
import { remoteCodeRules } from './remote-code-rules'
import { chain, chars, words } from './rule-engine'
import { rule, type ThreatRule } from './threat-types'

export type { ThreatCategory, ThreatRule, ThreatScope } from './threat-types'

/**
 * The threat rules: Hermes's 36 patterns (tools/threat_patterns.py) with the same ids, scopes and
 * meaning, rewritten as linear-time chains and run on lower-cased, folded text (see match-text.ts).
 * Scopes nest: `all` rules run everywhere, `context` rules also run for context and strict scans,
 * `strict` rules only for strict scans (memory and skill writes the user can resolve).
 *
 * Deliberate differences from Hermes: no 64 KiB cut-off; a leading word boundary on the first keyword
 * ("concat x.env" is not "cat"); `cat > .env` / `cat <<EOF` heredoc writes are not reads of secrets;
 * Cairn's own paths (`~/.cairn/.env`, `.cairn/config.json`) replace Hermes's; CAIRN joins the agent
 * environment variables an attacker would unset.
 *
 * Cairn's own rules follow Hermes's: exfiltration said in plain words (exfil-rules.ts), commands that
 * fetch and run remote code (remote-code-rules.ts) and instructions to skip approvals (approval-rules.ts).
 */

/** `(?:\w+\s+){0,8}` in Hermes: at most eight filler words between two key words. */
const filler = words(8)
const sameLine = (max: number) => chars(max, '\n', { first: true })
const modifyVerb = /\b(?:update|modify|edit|write|change|append|add\s+to)/
/** An environment variable whose name ends in a secret-ish word ($API_KEY, ${GH_TOKEN}); not $ETAPI_URL. */
const secretVariable = /\$\{?\w*(?:key|token|secret|password|credential)s?\b/
const homeDir = /(?:\$home|\$\{home\}|~)\//

function path(...parts: readonly RegExp[]): RegExp {
  return new RegExp(parts.map((part) => part.source).join(''))
}

const hermesRules: readonly ThreatRule[] = [
  // Classic prompt injection
  rule('prompt_injection', 'injection', 'all',
    chain(/\bignore/, filler, /\b(?:previous|all|above|prior)/, filler, /\binstructions/)),
  rule('sys_prompt_override', 'injection', 'all', chain(/\bsystem\s+prompt\s+override/)),
  rule('disregard_rules', 'injection', 'all',
    chain(/\bdisregard/, filler, /\b(?:your|all|any)/, filler, /\b(?:instructions|rules|guidelines)/)),
  rule('bypass_restrictions', 'injection', 'all',
    chain(/\bact\s+as\s+(?:if|though)/, filler, /\byou/, filler, /\b(?:have\s+no|don't\s+have)/, filler,
      /\b(?:restrictions|limits|rules)/)),
  rule('html_comment_injection', 'injection', 'all',
    chain(/<!--/, chars(512, '>'), /(?<![a-z-])(?:ignore|override|system|secret|hidden)(?![a-z-])/, chars(512, '>'), /-->/)),
  rule('hidden_div', 'injection', 'all',
    chain(/<\s*div\s+style\s*=\s*["']/, chars(2048, '>'), /display\s*:\s*none/)),
  rule('translate_execute', 'injection', 'all',
    chain(/\btranslate/, chars(512, '\n', { first: true, last: true }), /\binto/, words(3),
      /\band\s+(?:execute|run|eval)\b/)),
  rule('deception_hide', 'injection', 'all', chain(/\bdo\s+not/, filler, /\btell/, filler, /\bthe\s+user/)),

  // Role / identity hijack
  rule('role_hijack', 'role_hijack', 'context', chain(/\byou\s+are/, filler, /\bnow\s+(?:a|an|the)(?=\s)/)),
  rule('role_pretend', 'role_hijack', 'context', chain(/\bpretend/, filler, /\b(?:you\s+are|to\s+be)(?=\s)/)),
  rule('leak_system_prompt', 'role_hijack', 'context', chain(/\boutput/, filler, /\b(?:system|initial)\s+prompt/)),
  rule('remove_filters', 'role_hijack', 'context',
    chain(/\b(?:respond|answer|reply)\s+without/, filler, /\b(?:restrictions|limitations|filters|safety)/)),
  rule('fake_update', 'role_hijack', 'context',
    chain(/\byou\s+have\s+been/, filler, /\b(?:updated|upgraded|patched)\s+to/)),
  rule('identity_override', 'role_hijack', 'context', chain(/\bname\s+yourself\s+\w/)),

  // C2 / promptware (Brainworm-style)
  rule('c2_node_registration', 'c2', 'context', chain(/\bregister\s+(?:as\s+)?(?:a\s*)?node/)),
  rule('c2_heartbeat', 'c2', 'context', chain(/\b(?:heartbeat|beacon|check[\s-]?in)\s+(?:to|with)(?=\s)/)),
  rule('c2_task_pull', 'c2', 'context', chain(/\bpull\s+(?:down\s+)?(?:new\s+)?task(?:ing|s)?\b/)),
  rule('c2_network_connect', 'c2', 'context', chain(/\bconnect\s+to\s+the\s+network\b/)),
  rule('forced_action', 'c2', 'context', chain(/\byou\s+must/, words(3), /\b(?:register|connect|report|beacon)\b/)),
  rule('anti_forensic_oneliner', 'c2', 'context', chain(/\bonly\s+use\s+one[\s-]?liners?\b/)),
  rule('anti_forensic_disk', 'c2', 'context',
    chain(/\bnever/, filler, /\b(?:create|write)/, filler, /\b(?:script|file)/, filler, /\bdisk/)),
  rule('env_var_unset_agent', 'c2', 'context',
    chain(/\bunset\s+\w*(?:claude|codex|hermes|cairn|agent|openai|anthropic)/)),

  // Known C2 / red-team framework names
  rule('known_c2_framework', 'c2', 'context',
    chain(/\b(?:cobalt\s*strike|sliver|havoc|mythic|metasploit|brainworm)\b/)),
  rule('c2_explicit', 'c2', 'context', chain(/\bc2\s+(?:server|channel|infrastructure|beacon)\b/)),
  rule('c2_explicit_long', 'c2', 'context', chain(/\bcommand\s+and\s+control\b/)),

  // Exfiltration
  rule('exfil_curl', 'exfiltration', 'all', chain(/\bcurl/, sameLine(2048), secretVariable)),
  rule('exfil_wget', 'exfiltration', 'all', chain(/\bwget/, sameLine(2048), secretVariable)),
  rule('read_secrets', 'exfiltration', 'all',
    chain(/\bcat(?!\s*(?:>|<<))/, sameLine(2048), /(?:\.env|credentials|\.netrc|\.pgpass|\.npmrc|\.pypirc)/)),
  rule('send_to_url', 'exfiltration', 'strict',
    chain(/\b(?:send|post|upload|transmit)/, chars(2048, '\n', { first: true, last: true }), /\b(?:to|at)\s+https?:\/\//)),
  rule('context_exfil', 'exfiltration', 'strict',
    chain(/\b(?:include|output|print|share)/, filler,
      /\b(?:conversation|chat\s+history|previous\s+messages|full\s+context|entire\s+context)/)),

  // Persistence
  rule('ssh_backdoor', 'persistence', 'strict', chain(/authorized_keys/)),
  rule('ssh_access', 'persistence', 'strict', chain(path(homeDir, /\.ssh/))),
  rule('cairn_env', 'persistence', 'strict',
    chain(/(?:(?:\$home|\$\{home\}|~)\/\.cairn|\$\{?cairn_home\}?)\/\.env/)),
  rule('agent_config_mod', 'persistence', 'strict',
    chain(modifyVerb, sameLine(2048), /(?:agents\.md|claude\.md|\.cursorrules|\.clinerules)/)),
  rule('cairn_config_mod', 'persistence', 'strict', chain(modifyVerb, sameLine(2048), /\.cairn\/config\.json/)),

  // Hardcoded secrets
  rule('hardcoded_secret', 'secret', 'strict',
    chain(/(?:api[_-]?key|token|secret|password)\s*[=:]\s*["'][a-z0-9+/=_-]{20}/))
]

export const threatRules: readonly ThreatRule[] = [...hermesRules, ...exfilRules, ...remoteCodeRules, ...approvalRules]
