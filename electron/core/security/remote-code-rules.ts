import { chain, chars, type Chain } from './rule-engine'
import { rule, type ThreatRule } from './threat-types'

/**
 * Commands that fetch code and run it in one step: `curl -fsSL https://x/setup.sh | sh`,
 * `iwr https://x | iex`, `bash <(curl …)`, `sh -c "$(curl …)"`, `eval "$(wget -qO- …)"`.
 *
 * Piping into an interpreter that reads the download as data is not running it: `| python3 -m json.tool`,
 * `| node -e "…"`, `| sh install.sh` (a local script) and `|| bash` (a fallback) stay clean. The download
 * must name where it comes from (a URL, a host, a `$VARIABLE`), so prose about "`curl ... | bash`" does not count.
 *
 * Scope `strict` (memory): real skills carry installers (`curl -fsSL https://…/install.sh | bash`), so for
 * skills these commands are reported by skill-dangers.ts as what a change adds, not by the scan.
 */

const fetcher = /\b(?:curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod)(?![\w-])/
/** Where the download comes from: a URL, a `$VARIABLE`, or a dotted host such as `sh.rustup.rs`. */
const remoteSource = new RegExp(
  String.raw`(?:(?:https?|ftps?):\/\/|\$\{?[a-z_]|(?<![a-z0-9.-])[a-z0-9-]{1,63}\.[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})?(?=[\/:\s'"\x60]|$))`
)

/** A pipe (not `||`), then optionally `sudo [-E]` and `env VAR=value`, right before the interpreter. */
const afterPipe =
  String.raw`(?<=(?<!\|)\|\s{0,8}(?:sudo\s{1,8}(?:-[a-z]{1,8}\s{1,8})?(?:-[a-z]{1,8}\s{1,8})?)?` +
  String.raw`(?:env\s{1,8}(?:[a-z_][a-z0-9_]{0,40}=[^\s|;&]{0,64}\s{1,8})?(?:[a-z_][a-z0-9_]{0,40}=[^\s|;&]{0,64}\s{1,8})?)?)`
/** A shell runs stdin unless told to run a command (`-c`) or a local script (`sh install.sh`). */
const shellRunsStdin =
  String.raw`(?:sh|bash|zsh|dash|ksh|fish|pwsh|powershell)(?![\w.-])` +
  String.raw`(?![ \t]{1,8}(?:-(?:c|command|file|f)(?![\w-])|[^\s|;&)#\-]))`
/** An interpreter runs stdin only when given no script: bare or `-`. */
const interpreterRunsStdin =
  String.raw`(?:python[0-9.]{0,5}|perl|ruby|node)(?![\w.-])(?=[ \t]{0,8}(?:$|[\r\n;&|)\x60#'"]|-(?![\w-])))`
/** The name is looked for first: a look-behind tried at every offset would cost more than all other terms. */
const interpreterName = String.raw`\b(?=(?:sh|bash|zsh|dash|ksh|fish|pwsh|powershell|python|perl|ruby|node|iex|invoke-expression)(?![a-z-]))`
const pipedShell = new RegExp(
  interpreterName + afterPipe + `(?:${shellRunsStdin}|${interpreterRunsStdin}|(?:iex|invoke-expression)(?![\w-]))`
)

/**
 * `bash <(curl …)`, `. <(wget …)`, `sh -c "$(curl …)"`, `eval "$(curl …)"`, `python3 -c "$(curl …)"`,
 * `iex (iwr …)`. Each branch starts with `\b` or a literal so the scan skips most offsets cheaply.
 */
const substitutedDownload = new RegExp(
  String.raw`\b(?<![.-])(?:(?:sh|bash|zsh|dash|ksh|source|python[0-9.]{0,5}|perl|ruby|node)\s{1,8}(?:-[a-z]{1,3}\s{1,8})?<\(\s{0,4}|` +
    String.raw`(?:sh|bash|zsh|dash|ksh|eval|python[0-9.]{0,5}|perl|ruby|node)\s{1,8}(?:-[ce]\s{1,8})?["']?(?:\$\(|\x60)\s{0,4})` +
    String.raw`(?:curl|wget|fetch)(?![\w-])|` +
    String.raw`\.(?<![\w.-]\.)\s{1,8}<\(\s{0,4}(?:curl|wget|fetch)(?![\w-])|` +
    String.raw`\b(?:iex|invoke-expression)\s{0,4}\(\s{0,4}(?:iwr|irm|invoke-webrequest|invoke-restmethod|\(?\s{0,4}new-object\s{1,8}(?:system\.)?net\.webclient)(?![\w-])`
)

export const remoteCodeChains: Readonly<Record<string, Chain>> = {
  remote_code_pipe_shell: chain(fetcher, chars(1024, '\n'), remoteSource, chars(1024, '\n'), pipedShell),
  remote_code_substitution: chain(substitutedDownload)
}

export const remoteCodeRules: readonly ThreatRule[] = [
  rule('remote_code_pipe_shell', 'remote_code', 'strict', remoteCodeChains.remote_code_pipe_shell),
  rule('remote_code_substitution', 'remote_code', 'strict', remoteCodeChains.remote_code_substitution)
]
