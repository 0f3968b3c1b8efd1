import {
  EXACT_PROGRAMS,
  LAUNCHING_COMMANDS,
  firstPositional,
  gitCommandIndex,
  isInterpreter,
  isOptionLike,
  joinWords,
  programName,
  scopeOfWords,
  scriptIndex,
  shellWords
} from '../../../shared/command-prefix'
import { namesPathOutside } from './command-options'
import { checkKnownProgram, gitAddressProblem } from './command-rules'
import { programTextWords } from './command-scripts'

/**
 * When a command may run on an "always allow" prefix without asking (see shared/command-prefix.ts for
 * the three scopes). The rule, in short: a saved prefix never grants more than the user saw. The
 * command must start with the prefix's words, parsed as `sh` parses them (so quoting cannot hide an
 * option), and what it adds must be harmless for that program:
 * - known programs: no option that writes files (`git log --output`, `sed -i`, `sed 's/a/b/w f'`,
 *   `find -fprint`, `curl -o`, `sort -o`…), runs another program (`find -exec`, `git -c`, `tar
 *   --to-command`, `rsync -e`, `ssh -o ProxyCommand`, `awk 'system(…)'`…), switches repository or
 *   configuration (`git -C`, `--git-dir`), or sends a local file away (`curl -d @file`, `-T`); for git
 *   without a command in the prefix, only read-only git commands (an unknown name may be an alias);
 * - other programs, and a script run by an interpreter: more arguments, but nothing option-like
 *   (`-x`, `--x`, `+x`); a package manager never gains `install`/`exec`/`dlx`…, make no `VAR=value`;
 * - launchers (`xargs`, `env`, `sudo`, `timeout`, `npx`…), file changers (`rm`, `mv`, `cp`…) and
 *   interpreters without a script in the prefix: only the exact command.
 * Anything else asks, as if no prefix were saved.
 */

export type PrefixVerdict = { allowed: true } | { allowed: false; reason: string }

export interface PolicyOptions {
  /** Parse as cmd.exe would (only plain unquoted words); defaults to the running platform. */
  windows?: boolean
}

const refuse = (reason: string): PrefixVerdict => ({ allowed: false, reason })

function parse(text: string, options: PolicyOptions): string[] | null {
  return shellWords(text.trim(), { windows: options.windows ?? process.platform === 'win32' })
}

/** Whether `command` may run without asking because the user always allows `prefix` (and why not). */
export function checkAgainstPrefix(command: string, prefix: string, options: PolicyOptions = {}): PrefixVerdict {
  const granted = parse(prefix, options)
  if (!granted || granted.length === 0) return refuse('the saved prefix cannot be read as plain words')
  const words = parse(command, options)
  if (!words) {
    return refuse('the command uses shell features whose effect Cairn cannot check (operators, $ or ` expansions, unclosed quotes, braces, or globs that could turn into options)')
  }
  if (words.length < granted.length || granted.some((word, index) => words[index] !== word)) return refuse('the command does not start with the prefix')
  if (words.length === granted.length) return { allowed: true }
  // Every added word is a possible path (`grep /x` asks), except sed and awk program text as their
  // option rules read it (`sed '/^#/d'`), whose file names (sed `r FILE`) the script checks read.
  const text = programTextWords(words, granted.length)
  const outside = words.find((word, i) => i >= granted.length && !text.has(i) && namesPathOutside(word))
  if (outside) return refuse(`${outside} names a path that may be outside the workspace, and a saved prefix covers the workspace only`)
  const reason = extraProblem(words, granted.length)
  return reason ? refuse(reason) : { allowed: true }
}

/** Why the words after the first `granted` ones may not run unasked, or null. */
function extraProblem(words: string[], granted: number): string | null {
  const scope = scopeOfWords(words.slice(0, granted))
  if (scope === 'exact') return 'this prefix allows only the exact command saved: what is added would say what the program runs, installs or changes'
  if (scope === 'arguments') return argumentsProblem(words, granted)
  return checkKnownProgram(words, granted)
}

const MAKE_PROGRAMS: ReadonlySet<string> = new Set(['make', 'gmake', 'bmake', 'nmake'])

/** Added words for a program Cairn has no option rules for: plain arguments only. */
function argumentsProblem(words: string[], granted: number): string | null {
  const program = programName(words[0])
  if (program === 'git') {
    const address = gitAddressProblem(words, granted)
    if (address) return address
  }
  for (let i = granted; i < words.length; i++) {
    if (isOptionLike(words[i])) return `${words[i]} is an option, and only plain arguments may be added to this prefix`
    if (MAKE_PROGRAMS.has(program) && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i])) return `${words[i]} overrides a make variable (such as SHELL), which can run any program`
  }
  const launching = Object.hasOwn(LAUNCHING_COMMANDS, program) ? LAUNCHING_COMMANDS[program] : null
  const command = firstPositional(words)
  if (launching && command >= granted && command < words.length && launching.has(words[command])) {
    return `${program} ${words[command]} installs or runs code named by its arguments`
  }
  return null
}

/**
 * The prefix offered for "always allow": the program and its first plain argument (`npm test`, `git
 * log`, `find .`), the script an interpreter runs (`sh check.sh`, `python3 -m pytest`), or the whole
 * command where a shorter prefix would allow nothing more or something else (launchers, file changers,
 * network clients: curl, rsync/scp/sftp/ssh and the exact ones such as wget, nc, httpie, whose plain
 * arguments say what is written, run, or which address is reached; a git command reaching a remote by
 * its address). Empty when none fits.
 */
export function suggestPrefix(command: string, options: PolicyOptions = {}): string {
  const words = parse(command, options)
  if (!words || words.length === 0) return fallbackPrefix(command)
  const cut = suggestionLength(words)
  const prefix = words.slice(0, cut)
  return joinWords(cut < words.length && scopeOfWords(prefix) === 'exact' ? words : prefix)
}

/** Checked programs whose prefix is the whole command: a shorter one would let another address or destination be added. */
const WHOLE_COMMAND: ReadonlySet<string> = new Set(['curl', 'rsync', 'scp', 'sftp', 'ssh'])

function suggestionLength(words: string[]): number {
  const program = programName(words[0])
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]) || EXACT_PROGRAMS.has(program) || WHOLE_COMMAND.has(program)) return words.length
  if (isInterpreter(program)) {
    const script = scriptIndex(words)
    return script > 0 ? script + 1 : words.length
  }
  if (program === 'git') return gitAddressProblem(words, 1) ? words.length : Math.min(gitCommandIndex(words) + 1, words.length)
  if (Object.hasOwn(LAUNCHING_COMMANDS, program)) {
    const command = firstPositional(words)
    if (command >= words.length) return 1
    if (LAUNCHING_COMMANDS[program].has(words[command])) return words.length
    // `npm run build`: the script's name is part of what was seen.
    return ['run', 'run-script'].includes(words[command]) ? Math.min(command + 2, words.length) : command + 1
  }
  return words.length > 1 && !isOptionLike(words[1]) ? 2 : 1
}

/** For a command that cannot be parsed (a glob, a `$`): its plain leading words, if the program allows a prefix at all. */
function fallbackPrefix(command: string): string {
  const plain = /^[A-Za-z0-9_@%+=:,./-]+$/
  const [program, first] = command.trim().split(/\s+/)
  if (!program || !plain.test(program) || WHOLE_COMMAND.has(programName(program))) return ''
  const words = first && plain.test(first) && !isOptionLike(first) ? [program, first] : [program]
  return scopeOfWords(words) === 'exact' ? '' : words.join(' ')
}
