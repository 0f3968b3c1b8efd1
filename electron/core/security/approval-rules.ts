import { chain, words, type Chain } from './rule-engine'
import { rule, type ThreatRule } from './threat-types'

/**
 * Instructions to an agent to act without the user's say-so: skip approvals or confirmations, turn
 * off the sandbox or safety checks, always run with `--dangerously-skip-permissions`, never ask first.
 *
 * A sentence that tells the agent to ask ("never delete files without asking for confirmation") is the
 * opposite, so "without asking" is not a trigger; a flag named in a table of options is not an
 * instruction either, so a bare flag only counts after "always" / "by default".
 */

/**
 * Not after a negation ("MCP doesn't bypass the approval step", "never skip the sandbox"), nor as the
 * description of an option ("--yolo   Skip dangerous command approval", "| Skip approvals |", "`off` — skip all
 * approval prompts").
 */
const notNegatedOrDescribed = String.raw`(?<!(?:\bnever|\bnot|n't|\bno|\bcannot|\bwithout)\s{1,4}(?:\w{1,20}\s{1,4})?)(?<!(?:--[\w-]{1,40}|\|)\s{1,30})` +
  String.raw`(?<!\x60\s{0,4}(?:—|–|-{1,2}|:)\s{0,4})`
const disableVerb = new RegExp(
  String.raw`\b(?=skip|disabl|bypass|circumvent|turn|switch|ignor|suppress|deactivat|get|overrid)` +
    notNegatedOrDescribed +
    String.raw`\b(?:skip(?:s|ped|ping)?|disabl(?:e|es|ed|ing)|bypass(?:es|ed|ing)?|circumvent(?:s|ed|ing)?|` +
    String.raw`turn(?:s|ed|ing)?\s{1,4}off|switch(?:es|ed|ing)?\s{1,4}off|ignor(?:e|es|ed|ing)|suppress(?:es|ed|ing)?|` +
    String.raw`deactivat(?:e|es|ed|ing)|get(?:s|ting)?\s{1,4}around|overrid(?:e|es|ing)|overridden)(?![a-z])`
)
const safeguard = new RegExp(
  // A bare singular ("hotfixes may skip the approval") is a person's process, not the agent's safeguard.
  String.raw`\b(?:approval\s{1,4}(?:prompts?|checks?|steps?|gates?|requests?|flow|mode)|approvals|(?:all|every|any|user)\s{1,4}approval(?:\s{1,4}(?:prompts?|checks?|steps?|gates?|requests?))?|` +
    String.raw`confirmation\s{1,4}(?:prompts?|dialogs?|steps?)|confirmations|(?:all|every|any|user)\s{1,4}confirmation(?:\s{1,4}(?:prompts?|dialogs?|steps?))?|confirm\s{1,4}(?:prompts?|dialogs?|steps?)|` +
    String.raw`permission\s{1,4}(?:prompts?|checks?|dialogs?|requests?|system)|sandbox(?:ing|es)?|` +
    String.raw`safety\s{1,4}(?:checks?|guards?|guardrails?|rules?|prompts?|measures?|mechanisms?)|` +
    String.raw`security\s{1,4}(?:checks?|scans?|scanners?|warnings?|prompts?|rules?|policies|measures?|controls?)|` +
    String.raw`guardrails?|human[\s-]{1,4}in[\s-]{1,4}the[\s-]{1,4}loop|user\s{1,4}(?:approval|confirmation|consent))(?![a-z])`
)

const always = /\b(?:always|by\s{1,4}default|every\s{1,4}time)(?![a-z])/
/** Flags that switch approvals or the sandbox off (Claude Code, Codex, Gemini, Grok, OpenHands, Chrome, package managers). */
export const bypassFlag = new RegExp(
  String.raw`[\x60"'(]?--(?:dangerously-skip-permissions|allow-dangerously-skip-permissions|dangerously-bypass-approvals-and-sandbox|` +
    String.raw`no-sandbox|yolo|yes|always-approve|auto-approve|trust-all-tools|skip-permissions|no-confirm|noconfirm|force-yes|` +
    String.raw`full-auto|bypass-approvals?)(?![\w-])`
)

const dontAsk = new RegExp(
  String.raw`\b(?:never|don't|dont|do\s{1,4}not|no\s{1,4}need\s{1,4}to|stop)\s{1,4}` +
    String.raw`(?:ask|asking|prompt|prompting|wait|waiting|check|checking|seek|seeking|need|needing)(?![a-z])`
)
const askTarget = new RegExp(
  String.raw`\b(?:permission|approval|confirmation|consent|the\s{1,4}user\s{1,4}(?:first|before)|before\s{1,4}` +
    String.raw`(?:running|executing|acting|proceeding|deleting|writing|sending|changing|installing|modifying|overwriting|` +
    String.raw`pushing|committing|making|doing|taking|using|calling|editing))(?![a-z])`
)

const switchOn = /\b(?:always|enable|enables|enabled|enabling|turn\s{1,4}on|switch\s{1,4}(?:on|to)|set|activate)(?![a-z])/
const autoApprove = new RegExp(
  String.raw`\b(?:auto[\s-]?approv(?:e|es|ed|al|ing)|automatically\s{1,4}approv(?:e|es|ing)|yolo\s{1,4}mode|bypasspermissions|` +
    String.raw`bypass\s{1,4}permissions\s{1,4}mode|full[\s-]auto\s{1,4}mode|approve\s{1,4}(?:everything|all\s{1,4}` +
    String.raw`(?:commands|actions|tool\s{1,4}calls|tools|requests|changes)))(?![a-z])`
)

/** 跳过所有确认, 关闭沙箱, 禁用安全检查, 开启自动批准. */
const zhDisable = new RegExp(
  '(?:(?:跳过|關閉|关闭|禁用|绕过|繞過|绕开|忽略|停用|省略|略过|取消)(?:所有|全部|一切|任何|每次|每个)?的?(?:用户|人工)?的?' +
    '(?:确认|確認|审批|審批|批准|授权|許可|许可|沙箱|沙盒|安全检查|安全審查|安全审查|安全扫描|权限检查|权限确认|权限提示|审核)|' +
    '(?:开启|開啟|启用|打开|始终|总是|一律)(?:所有的?)?(?:自动批准|自动同意|自动确认|自动通过|免确认|yolo\\s{0,4}模式))'
)
/** 不要询问, 无需确认, 不必征求用户同意. */
const zhDontAsk = new RegExp(
  '(?:不要|不用|无需|無需|无须|不必|不需要|永远不要|从不|别)再?(?:向用户|跟用户)?(?:询问|詢問|征求|请求|等待)?(?:用户)?的?' +
    '(?:确认|確認|同意|许可|許可|批准|审批|授权)|(?:不要|不用|别)再?询问(?:用户)?(?=[，。,.!！；;\\s]|$)'
)

export const approvalChains: Readonly<Record<string, Chain>> = {
  approval_skip: chain(disableVerb, words(4), safeguard),
  approval_always_flag: chain(always, words(4), bypassFlag),
  approval_never_ask: chain(dontAsk, words(3), askTarget),
  approval_auto_approve: chain(switchOn, words(4), autoApprove),
  approval_zh_skip: chain(zhDisable),
  approval_zh_never_ask: chain(zhDontAsk)
}

export const approvalRules: readonly ThreatRule[] = Object.entries(approvalChains).map(([id, ruleChain]) =>
  rule(id, 'approval_bypass', 'context', ruleChain)
)
