import { GIT_READ_ONLY, GIT_VALUE_GLOBALS, gitCommandIndex, isOptionLike, programName, splitLong } from '../../../shared/command-prefix'
import { abbreviates, scanOptions, type OptionRules } from './command-options'
import { checkAwk, checkSed } from './command-scripts'

/**
 * The option rules of the programs a `checked` prefix covers (see command-policy.ts). Each returns
 * why the words added after the prefix (index ≥ `granted`) may not run unasked, or null.
 */
type Rule = (words: readonly string[], granted: number) => string | null

const FIND_ACTIONS: ReadonlySet<string> = new Set(['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls'])

/** find: its actions that run commands, delete or write files (find has no abbreviations). */
function checkFind(words: readonly string[], granted: number): string | null {
  const action = words.slice(granted).find((word) => FIND_ACTIONS.has(word))
  return action ? `find ${action} runs a command, deletes or writes files` : null
}

/** git options before the command that never change which repository, configuration or programs git uses. */
const SAFE_GIT_GLOBALS: ReadonlySet<string> = new Set([
  '--no-pager', '-P', '-p', '--paginate', '--no-replace-objects', '--literal-pathspecs', '--glob-pathspecs',
  '--noglob-pathspecs', '--icase-pathspecs', '--no-optional-locks', '--version'
])

/** Options of read-only git commands that write a file or run a program (their abbreviations too). */
const GIT_BAD_LONG = ['output', 'output-directory', 'open-files-in-pager', 'upload-pack', 'receive-pack', 'exec', 'exec-path']

/**
 * git: added global options only from a safe list (`-c`, `-C`, `--git-dir`, `--exec-path`… can make
 * git run any program); a command added to a bare `git` prefix only if it is a read-only builtin (any
 * other name may be an alias, and `!` aliases run shell commands); and for the command no `--output`,
 * `-o` (outside grep and ls-files, where it only selects), `-O`/`--open-files-in-pager` or pack programs.
 */
function checkGit(words: readonly string[], granted: number): string | null {
  const command = gitCommandIndex(words)
  for (let i = 1; i < command; i++) {
    const takesValue = GIT_VALUE_GLOBALS.has(words[i])
    const added = i >= granted || (takesValue && i + 1 >= granted)
    if (added && !SAFE_GIT_GLOBALS.has(words[i])) {
      return `git ${words[i]} changes which repository, configuration or programs git uses (it can make git run any program)`
    }
    if (takesValue) i++
  }
  if (command >= words.length) return null
  const name = words[command]
  if (command >= granted && !GIT_READ_ONLY.has(name)) {
    return `git ${name} is not a read-only git command (it may change the repository, or be an alias that runs a program)`
  }
  for (let i = Math.max(command + 1, granted); i < words.length; i++) {
    const word = words[i]
    if (word === '--') break
    if (word.startsWith('--')) {
      const bad = abbreviates(splitLong(word)[0], GIT_BAD_LONG)
      if (bad) return `git ${name} --${bad} writes a file or runs a program`
    } else if (word.startsWith('-')) {
      if (word.includes('o') && name !== 'grep' && name !== 'ls-files') return `git ${name} ${word}: -o writes files`
      if (word.includes('O') && name === 'grep') return 'git grep -O opens the matches in a program'
    }
  }
  return null
}

/** git commands that reach a repository named by address: the first argument, or for `remote`/`submodule` any argument. */
const GIT_REMOTE_COMMANDS: ReadonlySet<string> = new Set([
  'push', 'fetch', 'pull', 'clone', 'ls-remote', 'remote', 'submodule', 'request-pull', 'fetch-pack', 'send-pack', 'http-fetch', 'http-push'
])

/**
 * Why an added argument of a git command that talks to remotes names a repository by its address (a
 * URL, or `host:path` where git expects a repository) rather than a remote already configured
 * (`origin`), or null: `git push` always allowed must not push to any host.
 */
export function gitAddressProblem(words: readonly string[], granted: number): string | null {
  const command = gitCommandIndex(words)
  const name = words[command]
  if (name === undefined || !GIT_REMOTE_COMMANDS.has(name)) return null
  const anywhere = name === 'remote' || name === 'submodule' || name === 'request-pull'
  let first = true
  for (let i = command + 1; i < words.length; i++) {
    const word = words[i]
    if (isOptionLike(word)) continue
    const repository = first || anywhere
    first = false
    if (i < granted) continue
    if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(word) || (repository && /^[^/\\]*:/.test(word))) {
      return `git ${name} ${word} names a repository by its address, and a saved prefix never reaches another address`
    }
  }
  return null
}

/** tar: never a mode that creates or extracts (writes files), a program it runs, or a remote `host:` archive. */
const TAR: OptionRules = {
  badShort: 'cruxAIF',
  badLong: [
    'create', 'append', 'update', 'extract', 'get', 'delete', 'catenate', 'concatenate', 'to-command', 'checkpoint-action',
    'use-compress-program', 'compress-program', 'info-script', 'new-volume-script', 'rsh-command', 'rmt-command',
    'index-file', 'volno-file', 'remove-files'
  ]
}

function checkTar(words: readonly string[], granted: number): string | null {
  let from = 1
  // `tar xzf a.tar`: the first word may be a bundle of letters without a dash.
  if (words.length > 1 && !words[1].startsWith('-')) {
    const bad = [...words[1]].find((letter) => TAR.badShort!.includes(letter))
    if (granted <= 1 && bad) return `tar ${bad} creates or extracts files, or runs a program`
    from = 2
  }
  const scan = scanOptions(words, granted, TAR, from)
  if (scan.problem) return `tar ${scan.problem}`
  const remote = !words.includes('--force-local') && words.slice(granted).find((word) => word.includes(':'))
  return remote ? `tar reaches ${remote} through a remote shell program` : null
}

/** rsync: no remote-shell or remote-rsync program, batch or log file, deletion; no added path (it could become the destination). */
const RSYNC: OptionRules = {
  badShort: 'eM',
  badLong: [
    'rsh', 'rsync-path', 'write-batch', 'only-write-batch', 'read-batch', 'log-file', 'remove-source-files', 'remote-option',
    'daemon', 'config', 'delete', 'del', 'delete-before', 'delete-during', 'delete-delay', 'delete-after', 'delete-excluded',
    'delete-missing-args', 'backup-dir', 'temp-dir', 'partial-dir', 'compare-dest', 'copy-dest', 'link-dest'
  ],
  valueShort: 'BfT',
  valueLong: ['exclude', 'include', 'filter', 'exclude-from', 'include-from', 'files-from', 'chmod', 'chown', 'max-size', 'min-size', 'bwlimit', 'timeout', 'contimeout', 'port', 'block-size', 'compress-level', 'out-format', 'info', 'debug', 'modify-window', 'iconv', 'max-delete', 'suffix']
}

/** Keys of `ssh -o` that run a program, load a library, or write a file. */
const SSH_BAD_KEYS: ReadonlySet<string> = new Set([
  'proxycommand', 'localcommand', 'permitlocalcommand', 'knownhostscommand', 'match', 'include', 'pkcs11provider',
  'securitykeyprovider', 'controlpath', 'controlmaster', 'userknownhostsfile', 'remotecommand', 'proxyusefdpass', 'xauthlocation',
  // …or reach another address, or hand the host more than the connection
  'hostname', 'proxyjump', 'localforward', 'remoteforward', 'dynamicforward', 'tunnel', 'tunneldevice', 'gatewayports',
  'forwardagent', 'forwardx11', 'forwardx11trusted', 'sendenv', 'setenv'
])

const sshOptionValue = (option: string, value: string): string | null => {
  if (option !== '-o') return null
  const key = value.trim().split(/[\s=]/)[0].toLowerCase()
  return SSH_BAD_KEYS.has(key) ? `-o ${value} runs a program, loads a library, writes a file or reaches another address` : null
}

/** Also never another address: a jump host (-J), stdio or port forwarding (-W, -L, -R, -D), a tunnel, agent or X11 forwarding. */
const SSH: OptionRules = { badShort: 'EFSIJWLRDwAXY', valueShort: 'BbcDEeFIiJLlmOoPpQRSWw', value: sshOptionValue }
const SCP: OptionRules = { badShort: 'DFSJ', valueShort: 'cDFiJloPSX', value: sshOptionValue }
const SFTP: OptionRules = { badShort: 'bDFSJ', valueShort: 'BbcDFiJloPRSsX', value: sshOptionValue }

/** ssh: safe options, never a destination (the host must be in the prefix) nor a remote command added. */
function checkSsh(words: readonly string[], granted: number): string | null {
  const scan = scanOptions(words, granted, SSH)
  if (scan.problem) return `ssh ${scan.problem}`
  const host = scan.positionals[0]
  if (host !== undefined && host >= granted) return `ssh ${words[host]}: a host not in the saved prefix (a saved prefix never reaches another address)`
  const command = scan.positionals[1]
  if (command !== undefined && words.length > granted && command < words.length) {
    const firstAdded = Math.max(command, granted)
    if (firstAdded < words.length) return `ssh ${words[firstAdded]}: words after the host are a command run there`
  }
  return null
}

function noAddedArguments(program: string, rules: OptionRules): (words: readonly string[], granted: number) => string | null {
  return (words, granted) => {
    const scan = scanOptions(words, granted, rules)
    if (scan.problem) return `${program} ${scan.problem}`
    const added = scan.positionals.find((index) => index >= granted)
    return added === undefined ? null : `${program} ${words[added]}: an added path could change what is written, so paths must be in the saved prefix`
  }
}

/** curl: nothing written or uploaded, no local file sent (`@file`), no other host (another URL, a proxy, a socket). */
const CURL: OptionRules = {
  badShort: 'oODcKTwx:',
  badLong: [
    'output', 'output-dir', 'remote-name', 'remote-name-all', 'upload-file', 'dump-header', 'cookie-jar', 'config', 'trace',
    'trace-ascii', 'stderr', 'libcurl', 'etag-save', 'hsts', 'alt-svc', 'write-out', 'create-dirs', 'url', 'proxy',
    'preproxy', 'socks4', 'socks4a', 'socks5', 'socks5-hostname', 'connect-to', 'resolve', 'doh-url', 'unix-socket',
    'abstract-unix-socket', 'next', 'dns-servers', 'engine', 'variable'
  ],
  // `--expand-url '{{VAR}}'` puts an environment variable (imported with --variable %VAR) into what is sent.
  word: (word) => (word.startsWith('--expand-') ? `${word} puts variables (which can hold local files or the environment) into the request` : null),
  valueShort: 'AbCdeEFHmPQrtuUXyYz',
  valueLong: ['data', 'data-ascii', 'data-binary', 'data-raw', 'data-urlencode', 'form', 'form-string', 'json', 'header', 'proxy-header', 'url-query', 'user-agent', 'referer', 'request', 'user', 'max-time', 'connect-timeout', 'retry', 'range', 'cookie'],
  value: (option, value) => (/^(-[dFH]|--(data|form|json|header|proxy-header|url-query))/.test(option) && value.includes('@') ? `${option} ${value} can send a local file` : null)
}

/** curl: the address must be in the prefix; any added plain argument is another address (or a local file sent, `@file`). */
function checkCurl(words: readonly string[], granted: number): string | null {
  const scan = scanOptions(words, granted, CURL)
  if (scan.problem) return `curl ${scan.problem}`
  const added = scan.positionals.find((index) => index >= granted)
  if (added === undefined) return null
  if (words[added].startsWith('@')) return `curl ${words[added]} can send a local file`
  return `curl ${words[added]}: an address not in the saved prefix (a saved prefix never reaches another address)`
}

/** Programs that only read and print, with the few options that write files or run programs. */
const READERS: Record<string, OptionRules> = {
  rg: { badLong: ['pre', 'pre-glob'] },
  sort: { badShort: 'o', badLong: ['output', 'compress-program'] },
  tree: { badShort: 'oR' },
  date: { badShort: 's', badLong: ['set'] },
  file: { badShort: 'C', badLong: ['compile'] }
}

const RULES: Record<string, Rule> = {
  git: checkGit,
  find: checkFind,
  sed: checkSed,
  gsed: checkSed,
  awk: checkAwk,
  gawk: checkAwk,
  mawk: checkAwk,
  nawk: checkAwk,
  tar: checkTar,
  rsync: noAddedArguments('rsync', RSYNC),
  scp: noAddedArguments('scp', SCP),
  sftp: noAddedArguments('sftp', SFTP),
  ssh: checkSsh,
  curl: checkCurl
}

/** A program of CHECKED_PROGRAMS: its own rule, else a reader's (no refused options unless listed). */
export function checkKnownProgram(words: readonly string[], granted: number): string | null {
  const program = programName(words[0])
  if (Object.hasOwn(RULES, program)) return RULES[program](words, granted)
  const scan = scanOptions(words, granted, Object.hasOwn(READERS, program) ? READERS[program] : {})
  return scan.problem ? `${program} ${scan.problem}` : null
}
