/**
 * Where credentials live, as global regexes over folded (lower-cased) text. Group 1, when present, is
 * the path itself; otherwise the whole match is. Every repeat is bounded, so a scan is linear.
 */
export interface CredentialPattern {
  readonly regex: RegExp
  /** A match that names a file but no secret (a public key, a template). */
  readonly skip?: RegExp
}

const sep = String.raw`[\/\\]`
const home = String.raw`(?:~|\$home|\$\{home\}|%userprofile%|\/home\/[a-z0-9_.-]{1,32}|\/users\/[a-z0-9_.-]{1,32}|\/root|c:\\users\\[a-z0-9_.-]{1,32})`
const name = String.raw`[\w.-]{1,64}`
/** Credential stores under a home folder, Cairn's own secrets included. */
const stores = [
  `\\.ssh(?:${sep}${name})?`,
  `\\.aws(?:${sep}(?:credentials|config))?`,
  String.raw`\.netrc`,
  String.raw`_netrc`,
  String.raw`\.npmrc`,
  String.raw`\.pypirc`,
  String.raw`\.pgpass`,
  String.raw`\.git-credentials`,
  `\\.docker${sep}config\\.json`,
  `\\.kube${sep}config`,
  `\\.config${sep}gcloud(?:${sep}${name})?`,
  `\\.config${sep}gh${sep}hosts\\.yml`,
  `\\.gnupg(?:${sep}${name})?`,
  `\\.azure(?:${sep}${name})?`,
  `\\.cairn${sep}(?:secrets\\.json|config\\.json|\\.env)`,
  `library${sep}keychains(?:${sep}${name})?`
]
const publicKey = /\.pub$/

/** A `.env` file path (`.env`, `app/.env`, `.env.local`). */
const envPath = String.raw`((?:[\w.~$\/{}-]{0,128}\/)?\.env(?:\.[a-z]{1,16})?)(?![\w.-])`
const envTemplate = /\.env\.(?:example|sample|template|dist|defaults)$/
/** Commands and verbs that read or send a file. `source .env` (loading it for a command) and `cp` are not here. */
const readers =
  'cat|less|more|head|tail|bat|type|get-content|strings|xxd|base64|od|nc|scp|rsync|read|reads|reading|send|sends|sending|' +
  'upload|uploads|uploading|print|dump|display|exfiltrate|leak|post'

export const credentialPatterns: readonly CredentialPattern[] = [
  { regex: new RegExp(`(?<![\\w.-])(${home}${sep}(?:${stores.join('|')}))(?![\\w-]|\\.\\w)`, 'g'), skip: publicKey },
  { regex: new RegExp(String.raw`\$\{?cairn_home\}?${sep}(?:secrets\.json|config\.json|\.env)(?![\w.-])`, 'g') },
  { regex: /(?<![\w./\\-])(?:authorized_keys2?|id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?)(?![\w.-])/g },
  { regex: /\/etc\/(?:shadow|gshadow|master\.passwd|ssh\/ssh_host_[a-z0-9]{1,16}_key)(?![\w.-])/g },
  { regex: /\bsecurity\s{1,8}(?:find-generic-password|find-internet-password|dump-keychain)(?![\w-])/g },
  { regex: /\b(?:secret-tool\s{1,8}lookup|gpg\s{1,8}--export-secret-keys)(?![\w-])/g },
  {
    regex: new RegExp(
      String.raw`\b(?:${readers})\s{1,8}(?:-{1,2}[a-z][a-z-]{0,15}\s{1,8})?(?:-{1,2}[a-z][a-z-]{0,15}\s{1,8})?` +
        String.raw`(?:(?:the|your|my|its|this)\s{1,8})?(?:contents\s{1,8}of\s{1,8}(?:the\s{1,8}|your\s{1,8})?)?[\x60"']?` +
        envPath,
      'g'
    ),
    skip: envTemplate
  },
  { regex: new RegExp(String.raw`(?:@|\s-t\s{1,8}|--upload-file[\s=]{1,8})[\x60"']?` + envPath, 'g'), skip: envTemplate }
]
