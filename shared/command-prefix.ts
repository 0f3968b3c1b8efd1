/**
 * What an "always allow" command prefix grants, shared by the core (which enforces it, see
 * electron/core/workspace/command-policy.ts) and the faces (which word the button from it).
 *
 * A saved prefix never grants more than the user saw. A command it allows starts with the prefix's
 * words and adds, depending on the program (the prefix's **scope**):
 * - `checked`: programs Cairn knows (git, find, sed, awk, tar, rsync, ssh, curl, grep, ls…): more
 *   arguments, but no option that writes files, runs another program or sends local files away;
 * - `arguments`: any other program (and a script an interpreter runs): more arguments, no options;
 * - `exact`: program launchers (sudo, env, xargs, timeout, npx…), programs whose arguments name
 *   what they change (rm, mv, cp, tee…) or the address they reach (wget, nc, httpie, dig…), `git
 *   config` (a setting can run any program) and interpreters without a script: nothing more.
 *   (curl, ssh, scp, sftp and rsync are `checked`, but never gain an address beyond the prefix.)
 * Chaining, pipes, redirects, `$` expansions and globs that could turn into options are never allowed.
 */

export type PrefixScope = 'checked' | 'arguments' | 'exact'

/**
 * The words of a command as POSIX `sh` would pass them (quotes removed, backslashes applied), or null
 * when the text uses anything whose words cannot be known without running it: `$` and backtick
 * expansions, unclosed quotes, operators (`;&|<>()`), comments, brace expansion, or a glob where
 * its matches could start with `-`. With `windows` (cmd.exe), only unquoted plain words are accepted.
 */
export function shellWords(text: string, options: { windows?: boolean } = {}): string[] | null {
  if (options.windows) {
    if (/[%^!"&|<>()\n\r`]/.test(text)) return null
    const words = text.trim().split(/[ \t]+/).filter(Boolean)
    return words.every((word) => !globCouldBeOption(word, word)) ? words : null
  }
  const words: string[] = []
  let word = ''
  /** The word so far as written, unquoted characters only marked: for glob and brace checks. */
  let bare = ''
  let started = false
  const end = () => {
    if (!started) return true
    if (/\{[^}]*(,|\.\.)/.test(bare) || globCouldBeOption(word, bare)) return false
    words.push(word)
    word = ''
    bare = ''
    started = false
    return true
  }
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (char === ' ' || char === '\t') {
      if (!end()) return null
      continue
    }
    if (char === "'") {
      const close = text.indexOf("'", i + 1)
      if (close === -1) return null
      word += text.slice(i + 1, close)
      bare += '\0'.repeat(close - i - 1)
      started = true
      i = close
      continue
    }
    if (char === '"') {
      let j = i + 1
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '$' || text[j] === '`') return null
        if (text[j] === '\\' && j + 1 < text.length && '$`"\\'.includes(text[j + 1])) j++
        word += text[j]
        bare += '\0'
      }
      if (j >= text.length) return null
      started = true
      i = j
      continue
    }
    if (char === '\\') {
      if (i + 1 >= text.length) return null
      word += text[++i]
      bare += '\0'
      started = true
      continue
    }
    if ('$`;&|<>()\n\r'.includes(char) || (char === '#' && !started)) return null
    word += char
    bare += char
    started = true
  }
  return end() ? words : null
}

/** An unquoted `*`, `?` or `[` whose matches could begin with `-` (a file named `--output=x` would become an option). */
function globCouldBeOption(word: string, bare: string): boolean {
  const first = bare.search(/[*?[]/)
  if (first === -1) return false
  const literal = word.slice(0, first)
  return literal === '' || literal.startsWith('-') || literal.startsWith('+')
}

/** One word as `sh` would read it back: bare when plain, else single-quoted. */
export function quoteWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

export function joinWords(words: readonly string[]): string {
  return words.map(quoteWord).join(' ')
}

/** The program a command word names: `/usr/bin/git` and `git.exe` are `git`. */
export function programName(word: string): string {
  return word.slice(Math.max(word.lastIndexOf('/'), word.lastIndexOf('\\')) + 1).replace(/\.exe$/i, '')
}

/** An argument that is an option to its program (`-x`, `--name`, `+cmd`); a lone `-` or `+` is not. */
export function isOptionLike(word: string): boolean {
  return word.length > 1 && (word.startsWith('-') || word.startsWith('+'))
}

/**
 * Programs that run another program named by their arguments, whose arguments name what they change
 * or delete, or which address they reach: a prefix of one allows exactly the command the user saw, nothing added.
 */
export const EXACT_PROGRAMS: ReadonlySet<string> = new Set([
  // launchers
  'xargs', 'env', 'nice', 'nohup', 'timeout', 'sudo', 'doas', 'watch', 'time', 'command', 'exec', 'builtin', 'eval',
  'source', '.', 'stdbuf', 'ionice', 'chroot', 'setsid', 'flock', 'strace', 'ltrace', 'gdb', 'nsenter', 'unshare', 'su',
  'runuser', 'pkexec', 'chrt', 'taskset', 'numactl', 'parallel', 'caffeinate', 'systemd-run', 'firejail', 'unbuffer',
  'script', 'busybox', 'npx', 'pnpx', 'bunx', 'uvx', 'pipx', 'open', 'xdg-open', 'start', 'cmd', 'powershell', 'pwsh', 'osascript',
  // file writers and process killers whose arguments say what they hit
  'rm', 'rmdir', 'mv', 'cp', 'dd', 'tee', 'truncate', 'shred', 'ln', 'link', 'unlink', 'install', 'mkdir', 'touch',
  'chmod', 'chown', 'chgrp', 'split', 'csplit', 'patch', 'uniq', 'zip', 'unzip', 'gzip', 'gunzip', 'bzip2', 'xz', '7z',
  'mkfifo', 'mknod', 'kill', 'pkill', 'killall', 'crontab', 'at',
  // network clients whose arguments name the address reached (a host, a URL, a DNS name carrying data)
  'wget', 'http', 'https', 'httpie', 'xh', 'xhs', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'ftp', 'tftp', 'lftp', 'aria2c',
  'mosh', 'ping', 'ping6', 'dig', 'nslookup', 'host', 'whois', 'traceroute'
])

/** Programs with their own option rules (the core checks each): a prefix of one has the `checked` scope. */
export const CHECKED_PROGRAMS: ReadonlySet<string> = new Set([
  'git', 'find', 'sed', 'gsed', 'awk', 'gawk', 'mawk', 'nawk', 'tar', 'rsync', 'ssh', 'scp', 'sftp', 'curl',
  'ls', 'cat', 'head', 'tail', 'wc', 'du', 'df', 'stat', 'echo', 'pwd', 'which', 'whoami', 'uname', 'id', 'basename',
  'dirname', 'realpath', 'readlink', 'cut', 'tr', 'nl', 'od', 'grep', 'egrep', 'fgrep', 'rg', 'sort', 'tree', 'diff',
  'jq', 'file', 'date', 'printenv', 'true', 'false'
])

/**
 * git commands that only read (never aliases, which may run `!` shell commands): a prefix of bare
 * `git` allows these, and a prefix naming one of them has the `checked` scope.
 */
export const GIT_READ_ONLY: ReadonlySet<string> = new Set([
  'status', 'log', 'show', 'diff', 'blame', 'annotate', 'grep', 'ls-files', 'ls-tree', 'rev-parse', 'rev-list', 'describe',
  'shortlog', 'cat-file', 'diff-tree', 'diff-files', 'diff-index', 'name-rev', 'merge-base', 'show-ref', 'for-each-ref',
  'count-objects', 'whatchanged', 'version', 'check-ignore', 'check-attr', 'cherry', 'range-diff', 'show-branch', 'var'
])

/** git options before the command that take the next word as their value. */
export const GIT_VALUE_GLOBALS: ReadonlySet<string> = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env', '--list-cmds'])

/** Index in `words` of git's command (after its global options); `words.length` when there is none. */
export function gitCommandIndex(words: readonly string[]): number {
  let i = 1
  while (i < words.length && words[i].startsWith('-')) i += GIT_VALUE_GLOBALS.has(words[i]) ? 2 : 1
  return Math.min(i, words.length)
}

/**
 * Commands of package managers and build tools that install or run code named by their arguments
 * (`npm exec`, `pip install`, `go run`, `docker run`…): a prefix naming one allows exactly what was
 * seen, and a prefix of the bare tool never allows them.
 */
export const LAUNCHING_COMMANDS: Readonly<Record<string, ReadonlySet<string>>> = {
  npm: new Set(['exec', 'x', 'install', 'i', 'in', 'ins', 'inst', 'insta', 'instal', 'isnt', 'isnta', 'isntal', 'isntall', 'add', 'create', 'init', 'innit', 'it', 'install-test', 'cit', 'install-ci-test', 'explore', 'edit', 'config', 'set', 'pkg', 'link', 'ln']),
  yarn: new Set(['dlx', 'exec', 'node', 'add', 'install', 'create', 'init', 'config', 'set', 'global', 'link', 'plugin']),
  pnpm: new Set(['dlx', 'exec', 'add', 'install', 'i', 'create', 'init', 'config', 'env', 'link', 'ln', 'setup']),
  pip: new Set(['install', 'download', 'wheel']),
  pip3: new Set(['install', 'download', 'wheel']),
  uv: new Set(['run', 'tool', 'pip', 'add', 'sync', 'init']),
  poetry: new Set(['run', 'add', 'install', 'shell']),
  pipenv: new Set(['run', 'install', 'shell']),
  go: new Set(['run', 'generate', 'tool', 'install', 'get']),
  cargo: new Set(['install']),
  gem: new Set(['install']),
  bundle: new Set(['exec', 'install', 'add']),
  docker: new Set(['run', 'exec', 'compose', 'build', 'buildx', 'cp']),
  podman: new Set(['run', 'exec', 'compose', 'build', 'cp']),
  kubectl: new Set(['exec', 'run', 'debug', 'cp', 'apply', 'delete'])
}

/** The first word after the program that is not an option: a package manager's command. */
export function firstPositional(words: readonly string[]): number {
  const index = words.findIndex((word, i) => i > 0 && !isOptionLike(word))
  return index === -1 ? words.length : index
}

type InterpreterSpec = {
  /** Short options without a value. */
  flags: string
  /** Short options whose value is the rest of the word or the next word. */
  withValue: string
  /** Short options whose value is the program text or module run (the "script"). */
  script: string
  /** Short options after which the first plain word is the program text (`sh -c 'code'`). */
  codeFirst?: string
  longFlags?: readonly string[]
  longValue?: readonly string[]
  longScript?: readonly string[]
}

const SHELL: InterpreterSpec = {
  flags: 'abefhikmnprtuvxBCEHPTlL',
  withValue: 'oO',
  script: '',
  codeFirst: 'c',
  longFlags: ['norc', 'noprofile', 'login', 'posix', 'noediting', 'restricted', 'verbose', 'version', 'help'],
  longValue: ['rcfile', 'init-file']
}

const INTERPRETERS: Record<string, InterpreterSpec> = {
  python: { flags: 'bBdEhiIOPqRsSuvVx', withValue: 'WX', script: 'cm', longFlags: ['version', 'help', 'help-env', 'help-xoptions', 'help-all'], longValue: ['check-hash-based-pycs'] },
  node: {
    flags: 'hivc',
    withValue: 'rC',
    script: 'ep',
    longScript: ['eval', 'print'],
    longValue: ['require', 'import', 'loader', 'experimental-loader', 'conditions', 'env-file', 'input-type', 'title'],
    longFlags: ['watch', 'no-warnings', 'enable-source-maps', 'experimental-strip-types', 'inspect', 'inspect-brk', 'trace-warnings', 'version', 'help']
  },
  perl: { flags: 'acnpsStTuUwW', withValue: '0CdDFiIlmMVx', script: 'eE' },
  ruby: { flags: 'acdlnpsSvwy', withValue: 'rICEFKTxW0', script: 'e' },
  sh: SHELL
}
for (const name of ['bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'csh', 'tcsh']) INTERPRETERS[name] = SHELL
INTERPRETERS.nodejs = INTERPRETERS.node

/** Modules `python -m` runs that themselves run or install code named by their arguments. */
const LAUNCHING_MODULES: ReadonlySet<string> = new Set(['pip', 'pipx', 'pdb', 'cProfile', 'profile', 'trace', 'timeit', 'runpy', 'code', 'doctest', 'ensurepip', 'venv', 'uv', 'idlelib'])

function interpreterOf(program: string): InterpreterSpec | null {
  if (/^(python|pypy)[0-9.]*$/.test(program)) return INTERPRETERS.python
  return Object.hasOwn(INTERPRETERS, program) ? INTERPRETERS[program] : null
}

export function isInterpreter(program: string): boolean {
  return interpreterOf(program) !== null || program === 'deno' || program === 'bun'
}

/**
 * For an interpreter: the index of the word naming what it runs (the script, `-c` code, `-m` module),
 * or -1 when it cannot be told for sure (an option Cairn does not know, the script read from stdin).
 * Words after it are the script's own arguments.
 */
export function scriptIndex(words: readonly string[]): number {
  const program = programName(words[0] ?? '')
  if (program === 'deno' || program === 'bun') return runtimeScriptIndex(program, words)
  const spec = interpreterOf(program)
  if (!spec) return -1
  for (let i = 1; i < words.length; i++) {
    const word = words[i]
    if (word === '--') return i + 1 < words.length ? i + 1 : -1
    if (word.startsWith('--')) {
      const [name, value] = splitLong(word)
      if (spec.longScript?.includes(name)) return value !== undefined ? i : i + 1 < words.length ? i + 1 : -1
      if (value !== undefined) continue
      if (spec.longValue?.includes(name)) i++
      else if (!spec.longFlags?.includes(name)) return -1
      continue
    }
    if (word.startsWith('+') || word === '-') return -1
    // The script, or the code after `sh -c`: either way what the interpreter runs.
    if (!word.startsWith('-')) return i
    for (let j = 1; j < word.length; j++) {
      const letter = word[j]
      if (spec.script.includes(letter)) {
        if (letter === 'm' && LAUNCHING_MODULES.has(word.slice(j + 1) || words[i + 1] || '')) return -1
        return j + 1 < word.length ? i : i + 1 < words.length ? i + 1 : -1
      }
      if (spec.withValue.includes(letter)) {
        if (j + 1 === word.length) i++
        break
      }
      if (!spec.flags.includes(letter) && !spec.codeFirst?.includes(letter)) return -1
    }
  }
  return -1
}

/** deno and bun: `run <script>`, `eval <code>` (deno), or `bun <file or package.json script>`. */
function runtimeScriptIndex(program: 'deno' | 'bun', words: readonly string[]): number {
  const command = words[1]
  if (command === undefined || command.startsWith('-')) return -1
  const runs = program === 'deno' ? ['run', 'eval'] : ['run']
  if (runs.includes(command)) {
    for (let i = 2; i < words.length; i++) {
      const word = words[i]
      if (!word.startsWith('-')) return i
      if (!(word === '-A' || /^--(allow|deny|no)-[a-z-]+(=.*)?$/.test(word))) return -1
    }
    return -1
  }
  const commands = program === 'deno' ? DENO_COMMANDS : BUN_COMMANDS
  if (commands.has(command)) return -1
  return program === 'bun' || /[./]/.test(command) ? 1 : -1
}

const DENO_COMMANDS: ReadonlySet<string> = new Set(['test', 'task', 'install', 'add', 'compile', 'upgrade', 'x', 'serve', 'bench', 'repl', 'jupyter', 'fmt', 'lint', 'check', 'doc', 'info', 'cache', 'publish', 'init', 'clean', 'outdated', 'remove', 'uninstall'])
const BUN_COMMANDS: ReadonlySet<string> = new Set(['test', 'x', 'repl', 'exec', 'install', 'i', 'add', 'a', 'remove', 'rm', 'update', 'link', 'unlink', 'pm', 'build', 'init', 'create', 'c', 'upgrade', 'outdated', 'publish', 'patch', 'audit', 'info', 'why'])

/** `--name=value` → [name, value]; `--name` → [name, undefined]. */
export function splitLong(word: string): [string, string | undefined] {
  const body = word.replace(/^--/, '')
  const eq = body.indexOf('=')
  return eq === -1 ? [body, undefined] : [body.slice(0, eq), body.slice(eq + 1)]
}

/** The scope of a prefix's words (see the top of this file). */
export function scopeOfWords(words: readonly string[]): PrefixScope {
  if (words.length === 0) return 'exact'
  // `NAME=value cmd`: the variables (LD_PRELOAD, GIT_SSH_COMMAND…) could make any program run another.
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0])) return 'exact'
  const program = programName(words[0])
  if (EXACT_PROGRAMS.has(program)) return 'exact'
  if (isInterpreter(program)) {
    const script = scriptIndex(words)
    return script > 0 && script < words.length ? 'arguments' : 'exact'
  }
  if (program === 'git') {
    const command = gitCommandIndex(words)
    // `git config core.fsmonitor X` makes every later git command run X.
    if (words[command] === 'config') return 'exact'
    return command < words.length && !GIT_READ_ONLY.has(words[command]) ? 'arguments' : 'checked'
  }
  const launching = Object.hasOwn(LAUNCHING_COMMANDS, program) ? LAUNCHING_COMMANDS[program] : null
  if (launching) {
    const command = firstPositional(words)
    return command < words.length && launching.has(words[command]) ? 'exact' : 'arguments'
  }
  return CHECKED_PROGRAMS.has(program) ? 'checked' : 'arguments'
}

export function prefixScope(prefix: string): PrefixScope {
  const words = shellWords(prefix.trim())
  return words ? scopeOfWords(words) : 'exact'
}

/** The i18n key of the "always allow" button for a prefix: its wording says what the scope grants. */
export function prefixLabelKey(prefix: string): 'approval.allowPrefix' | 'approval.allowPrefixArgs' | 'approval.allowPrefixExact' {
  const scope = prefixScope(prefix)
  return scope === 'checked' ? 'approval.allowPrefix' : scope === 'arguments' ? 'approval.allowPrefixArgs' : 'approval.allowPrefixExact'
}
