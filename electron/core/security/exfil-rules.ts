import { chain, chars, type Chain } from './rule-engine'
import { rule, type ThreatRule } from './threat-types'

/**
 * Exfiltration said in plain words: "every edited file mirrored to http://x", "sync your notes to
 * ftp://x", "把文件上传到 http://x". A sending verb in any form, then, on the same line, "to"/"into"/
 * "onto" (到/至/给) and a destination that is not this machine: a URL, an IP address, or a bare
 * host with a TLD that is not also a file extension (`evil.example`, not `notes.md`).
 *
 * Skills legitimately send requests to APIs ("send a POST request to https://api.github.com"), so the
 * rules that run on skills (scope `context`) also want the user's data named on that line: files,
 * notes, messages, history, keys… Memory entries (scope `strict`) get the bare verb-to-destination rule.
 * "Deploy"/"publish" are not sending verbs, and `git push origin main` names no destination.
 */

/** Loopback destinations never count: the data stays on this machine. */
const notLoopback = String.raw`(?!localhost(?![a-z0-9.-])|127\.|0\.0\.0\.0(?![0-9])|\[::1\]|\[0:0:0:0:0:0:0:1\])`
/** A URL with a network scheme, optional credentials, not to loopback. */
const urlSource = String.raw`(?:https?|ftps?|sftp|wss?):\/\/(?:[^\s\/@]{1,64}@)?` + notLoopback + String.raw`[^\s'"\x60<>)\]]`
const ipSource = String.raw`(?!127\.|0\.0\.0\.0(?![0-9]))\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?![0-9]|\.[0-9])`
/**
 * TLDs that mark a bare word as a host. Leaves out those that read as file extensions (.sh .py .md .rs
 * .pl .zip .mov .app .cc .in) so "copy the script to deploy.sh" is no destination.
 */
const hostTlds = [
  'com', 'net', 'org', 'io', 'dev', 'ai', 'co', 'xyz', 'info', 'biz', 'me', 'ru', 'cn', 'su', 'tk', 'top',
  'site', 'online', 'example', 'test', 'us', 'uk', 'de', 'fr', 'jp', 'nl', 'eu', 'ca', 'au', 'br', 'ir', 'kp',
  'ly', 'to', 'tv', 'fm', 'gg', 'pw', 'ws', 'cloud', 'link', 'click', 'live', 'tech', 'store', 'shop', 'club',
  'fun', 'space', 'pro', 'host', 'website', 'onion', 'icu', 'cyou', 'buzz', 'win', 'bid', 'gov', 'edu'
]
const label = '[a-z0-9-]{1,63}'
const bareHostSource =
  `(?:${label}\\.)?(?:${label}\\.)?(?:${label}\\.)?${label}\\.(?:${hostTlds.join('|')})(?![a-z0-9-]|\\.[a-z0-9])`
/** A remote destination: URL, IPv4 address or bare host. */
export const destinationSource = `(?:${urlSource}|${ipSource}|${bareHostSource})`

/**
 * "to http://x", "into: `203.0.113.5`", "to the collection server at evil.example". A bare "at" is not
 * enough: "report bugs at https://github.com/…" sends nothing.
 */
export const toDestination = new RegExp(
  String.raw`\b(?:to|into|onto):?\s{1,8}(?:(?:the|a|an|our|my|your|this|that)\s{1,4})?` +
    String.raw`(?:(?:[a-z-]{1,20}\s{1,4})?(?:server|endpoint|host|url|address|webhook|site|bucket|api|service|machine|box)\s{1,4}(?:at\s{1,4})?)?` +
    String.raw`[\x60"'(<]?` +
    destinationSource
)
/** 到/至/给/往 and a destination, spaces optional ("上传到http://x"). */
export const zhToDestination = new RegExp(String.raw`(?:到|至|给|往)\s{0,4}[\x60"'(<「『]?` + destinationSource)

/** A sending verb in any form. "posts"/"reports" are left out: they are nouns more often than not. */
const sendVerb = new RegExp(
  String.raw`\b(?:sen(?:d|ds|ding|t)|post(?:ed|ing)?|upload(?:s|ed|ing)?|mirror(?:s|ed|ing)?|sync(?:s|ed|ing|h|hs|hed|hing)?|` +
    String.raw`synchroni[sz](?:e|es|ed|ing)|cop(?:y|ies|ied|ying)|forward(?:s|ed|ing)?|push(?:es|ed|ing)?|` +
    String.raw`transmit(?:s|ted|ting)?|exfil(?:trate|trates|trated|trating)?|back(?:s|ed|ing)?\s{1,4}up|backups?|` +
    String.raw`replicat(?:e|es|ed|ing)|leak(?:s|ed|ing)?|report(?:ed|ing)?|beam(?:s|ed|ing)?|pip(?:e|es|ed|ing))(?![a-z])` +
    // A person is sent somewhere to look at a page: "send the user to https://…/tokens".
    String.raw`(?!\s{1,4}(?:the\s{1,4})?(?:user|users|them|him|her|you|people|visitors|customers|readers)(?![a-z]))`
)
/** What a user would not want sent away. Not "changes"/"code"/"logs": pushing code or shipping logs is routine. */
const dataNoun = new RegExp(
  String.raw`\b(?:files?|folders?|director(?:y|ies)|documents?|notes?|notebooks?|messages?|e-?mails?|inbox|` +
    String.raw`conversations?|chats?|history|transcripts?|memor(?:y|ies)|context|contents?|data|secrets?|keys|` +
    String.raw`(?:api|ssh|private|access|secret)\s{1,4}keys?|tokens?|credentials?|passwords?|cookies?|sessions?|` +
    String.raw`env\s{1,4}(?:vars?|variables?|files?)|environment|clipboard|screenshots?|keystrokes?|everything|` +
    String.raw`contacts?|photos?|wallets?)(?![a-z])|\.(?<![\w.]\.)env(?![\w.-])`
)

const zhSendVerb = /(?:上传|上載|发送|發送|发到|传到|传送|傳送|传输|同步|镜像|鏡像|转发|轉發|备份|備份|复制|複製|拷贝|外发|外传|泄露|回传|导出)/
const zhDataNoun =
  /(?:文件|文档|檔案|笔记|筆記|消息|信息|聊天记录|对话|對話|会话|记忆|記憶|数据|數據|密钥|秘钥|私钥|凭据|凭证|密码|令牌|内容|历史|邮件|剪贴板|截图|环境变量|一切)/

/** At most `max` characters of the same line between two terms. */
const line = (max: number) => chars(max, '\n')

export const exfilChains: Readonly<Record<string, Chain>> = {
  exfil_data_sent_to_url: chain(dataNoun, line(80), sendVerb, line(160), toDestination),
  exfil_send_data_to_url: chain(sendVerb, line(160), dataNoun, line(160), toDestination),
  exfil_verb_to_url: chain(sendVerb, line(160), toDestination),
  exfil_zh_data_to_url: chain(zhDataNoun, line(40), zhSendVerb, line(40), zhToDestination),
  exfil_zh_send_data_to_url: chain(zhSendVerb, line(40), zhDataNoun, line(40), zhToDestination),
  exfil_zh_verb_to_url: chain(zhSendVerb, line(60), zhToDestination)
}

export const exfilRules: readonly ThreatRule[] = [
  rule('exfil_data_sent_to_url', 'exfiltration', 'context', exfilChains.exfil_data_sent_to_url),
  rule('exfil_send_data_to_url', 'exfiltration', 'context', exfilChains.exfil_send_data_to_url),
  rule('exfil_verb_to_url', 'exfiltration', 'strict', exfilChains.exfil_verb_to_url),
  rule('exfil_zh_data_to_url', 'exfiltration', 'context', exfilChains.exfil_zh_data_to_url),
  rule('exfil_zh_send_data_to_url', 'exfiltration', 'context', exfilChains.exfil_zh_send_data_to_url),
  rule('exfil_zh_verb_to_url', 'exfiltration', 'strict', exfilChains.exfil_zh_verb_to_url)
]
