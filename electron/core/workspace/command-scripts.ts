import { programName, splitLong } from '../../../shared/command-prefix'
import { namesPathOutside } from './command-options'

/**
 * sed and awk take a program as an argument: a prefix allows an added one only if it cannot write a
 * file or run a command. Both are read with a small parser that refuses what it does not understand.
 */

interface Script {
  text: string
  added: boolean
}

/** What a sed or awk command line holds: the first refused option, its programs, and the words that are program text. */
interface Parsed {
  problem: string | null
  scripts: Script[]
  /** Indices of words that are program text or option values that name no file (awk -F, -v), not paths. */
  text: Set<number>
}

const SED_LONG = [
  'expression', 'file', 'in-place', 'line-length', 'null-data', 'zero-terminated', 'quiet', 'silent', 'regexp-extended',
  'separate', 'sandbox', 'debug', 'posix', 'follow-symlinks', 'unbuffered', 'binary', 'help', 'version'
]

/** GNU sed's -l takes a number; BSD sed's is a flag, after which the next word is the script, not a value. */
const LINE_LENGTH = 'sed -l takes a line length (a number); anything else could be read as the script by another sed'

/**
 * sed: no `-i`/`--in-place`, no script file (`-f`), and every added script free of `w`, `W`, `e`,
 * `s///w`/`s///e`, and of `r`/`R` with a file outside the workspace.
 */
export function checkSed(words: readonly string[], granted: number): string | null {
  return firstScriptProblem(parseSed(words, granted), sedScriptProblem, 'sed script')
}

/** The parse's own problem, else the first added script that `problemOf` refuses, named by `label`. */
function firstScriptProblem({ problem, scripts }: Parsed, problemOf: (text: string) => string | null, label: string): string | null {
  if (problem) return problem
  for (const script of scripts) {
    const bad = script.added ? problemOf(script.text) : null
    if (bad) return `${label} ${JSON.stringify(script.text)} ${bad}`
  }
  return null
}

function parseSed(words: readonly string[], granted: number): Parsed {
  const scripts: Script[] = []
  const text = new Set<number>()
  const positionals: number[] = []
  let explicit = false
  const stop = (problem: string): Parsed => ({ problem, scripts, text })
  for (let i = 1; i < words.length; i++) {
    const word = words[i]
    const added = i >= granted
    if (word === '--') {
      for (let j = i + 1; j < words.length; j++) positionals.push(j)
      break
    }
    if (word.startsWith('--')) {
      const [name, attached] = splitLong(word)
      const matches = SED_LONG.filter((option) => option.startsWith(name))
      const full = SED_LONG.includes(name) ? name : matches.length === 1 ? matches[0] : undefined
      if (!full) {
        if (added) return stop(`sed ${word} is not an option Cairn knows`)
        continue
      }
      if (full === 'in-place' && added) return stop('sed --in-place edits files')
      if (full === 'expression' || full === 'file' || full === 'line-length') {
        let value = attached
        let valueAdded = added
        if (value === undefined && i + 1 < words.length) {
          value = words[++i]
          valueAdded = added || i >= granted
        }
        if (full === 'file') {
          explicit = true
          if (valueAdded) return stop('sed --file reads its script from a file Cairn does not check')
        }
        if (full === 'line-length' && valueAdded && !/^\d+$/.test(value ?? '')) return stop(LINE_LENGTH)
        if (full === 'expression') {
          explicit = true
          if (value !== undefined) {
            scripts.push({ text: value, added: valueAdded })
            text.add(i)
          }
        }
      }
      continue
    }
    if (word.startsWith('-') && word.length > 1) {
      for (let j = 1; j < word.length; j++) {
        const letter = word[j]
        if (letter === 'i') {
          if (added) return stop('sed -i edits files')
          break
        }
        if (letter === 'e' || letter === 'f' || letter === 'l') {
          let value: string | undefined = word.slice(j + 1)
          let valueAdded = added
          if (value === '') {
            value = words[++i]
            valueAdded = added || i >= granted
          }
          if (letter === 'e') explicit = true
          if (letter === 'e' && value !== undefined) {
            scripts.push({ text: value, added: valueAdded })
            text.add(i)
          }
          if (letter === 'f') {
            explicit = true
            if (valueAdded) return stop('sed -f reads its script from a file Cairn does not check')
          }
          if (letter === 'l' && valueAdded && !/^\d+$/.test(value ?? '')) return stop(LINE_LENGTH)
          break
        }
        if (!'nsuzErb'.includes(letter) && (added || i + 1 >= granted)) return stop(`sed -${letter} is not an option Cairn knows`)
      }
      continue
    }
    positionals.push(i)
  }
  if (!explicit && positionals.length > 0) {
    scripts.push({ text: words[positionals[0]], added: positionals[0] >= granted })
    text.add(positionals[0])
  }
  return { problem: null, scripts, text }
}

/** Commands of one character and no argument. */
const SED_PLAIN = new Set([...'{}=dDgGhHnNpPxzF'])

/** Why a sed script could write a file or run a command (or cannot be understood), or null. */
export function sedScriptProblem(script: string): string | null {
  const s = script
  let i = 0
  const skip = (pattern: RegExp) => {
    while (i < s.length && pattern.test(s[i])) i++
  }
  /** Moves past the next unescaped `delimiter`; false when there is none. */
  const pastDelimiter = (delimiter: string): boolean => {
    for (; i < s.length; i++) {
      if (s[i] === '\\') i++
      else if (s[i] === delimiter) {
        i++
        return true
      }
    }
    return false
  }
  /** Moves to the end of the line (past backslash-newlines when `continued`) and returns what it passed. */
  const restOfLine = (continued: boolean): string => {
    const start = i
    for (; i < s.length && s[i] !== '\n'; i++) if (continued && s[i] === '\\') i++
    return s.slice(start, i)
  }
  const address = (): boolean => {
    if (/[0-9]/.test(s[i] ?? '')) {
      skip(/[0-9]/)
      if (s[i] === '~') {
        i++
        skip(/[0-9]/)
      }
      return true
    }
    if (s[i] === '$') {
      i++
      return true
    }
    if (s[i] === '/' || s[i] === '\\') {
      const delimiter = s[i] === '/' ? '/' : s[i + 1]
      i += s[i] === '/' ? 1 : 2
      if (!delimiter || !pastDelimiter(delimiter)) return false
      skip(/[IM]/)
    }
    return true
  }
  for (;;) {
    skip(/[\s;]/)
    if (i >= s.length) return null
    if (!address()) return 'has an address Cairn cannot read'
    skip(/\s/)
    if (s[i] === ',') {
      i++
      skip(/\s/)
      if (s[i] === '+' || s[i] === '~') {
        i++
        skip(/[0-9]/)
      } else if (!address()) return 'has an address Cairn cannot read'
    }
    skip(/[\s!]/)
    const command = s[i++]
    if (command === undefined) return 'ends without a command'
    if (SED_PLAIN.has(command)) continue
    if ('lLqQ'.includes(command)) {
      skip(/[\s0-9]/)
      continue
    }
    if (':btTv'.includes(command)) {
      while (i < s.length && s[i] !== ';' && s[i] !== '\n') i++
      continue
    }
    // A comment or text to add (a, i, c; a backslash before the newline continues the text): up to the end of the line.
    if ('#aic'.includes(command)) {
      restOfLine(command !== '#')
      continue
    }
    // A file to read (r, R): its name is the rest of the line, and it must be one a prefix covers.
    if (command === 'r' || command === 'R') {
      const file = restOfLine(false).trim()
      if (namesPathOutside(file)) return `reads ${file}, which may be outside the workspace (${command})`
      continue
    }
    if (command === 'w' || command === 'W') return 'writes a file (w)'
    if (command === 'e') return 'runs a command (e)'
    if (command === 's' || command === 'y') {
      const delimiter = s[i++]
      if (!delimiter || delimiter === '\\' || delimiter === '\n') return `has an ${command} command Cairn cannot read`
      if (!pastDelimiter(delimiter) || !pastDelimiter(delimiter)) return `has an unterminated ${command} command`
      if (command === 'y') continue
      for (; i < s.length && !/[\s;}]/.test(s[i]); i++) {
        if (s[i] === 'w') return 'writes a file (s///w)'
        if (s[i] === 'e') return 'runs the result as a command (s///e)'
        if (!/[gpiImM0-9]/.test(s[i])) return `has an s flag Cairn does not know (${s[i]})`
      }
      continue
    }
    return `has a command Cairn does not know (${command})`
  }
}

/** awk: only -F, -v and -e/--source with a checked program; no program file (-f), extension, profile or dump file. */
export function checkAwk(words: readonly string[], granted: number): string | null {
  return firstScriptProblem(parseAwk(words, granted), awkProgramProblem, 'awk program')
}

function parseAwk(words: readonly string[], granted: number): Parsed {
  const scripts: Script[] = []
  const text = new Set<number>()
  const positionals: number[] = []
  let explicit = false
  for (let i = 1; i < words.length; i++) {
    const word = words[i]
    const added = i >= granted
    if (word === '--') {
      for (let j = i + 1; j < words.length; j++) positionals.push(j)
      break
    }
    if (!word.startsWith('-') || word === '-') {
      positionals.push(i)
      continue
    }
    const long = word.startsWith('--') ? splitLong(word) : null
    const option = long ? long[0] : word[1]
    const attached = long ? long[1] : word.length > 2 ? word.slice(2) : undefined
    const known = long ? ['source', 'field-separator', 'assign', 'file'].includes(option) : 'Fvef'.includes(option)
    if (!known) {
      // Unknown here (gawk --load, -o, -p, -d, -E…), or in the prefix with its value possibly added.
      if (added || i + 1 >= granted) return { problem: `awk ${word} is not an option Cairn allows (it can load code or write files)`, scripts, text }
      continue
    }
    const at = i
    let value = attached
    let valueAdded = added
    if (value === undefined && i + 1 < words.length) {
      value = words[++i]
      valueAdded = added || i >= granted
    }
    if (option === 'f' || option === 'file') {
      explicit = true
      if (valueAdded) return { problem: 'awk -f reads its program from a file Cairn does not check', scripts, text }
      continue
    }
    // A program, a field separator (`-F/`) or a variable's value: text, never a file awk opens.
    text.add(i)
    text.add(at)
    if ((option === 'e' || option === 'source') && value !== undefined) {
      explicit = true
      scripts.push({ text: value, added: valueAdded })
    }
  }
  if (!explicit && positionals.length > 0) {
    scripts.push({ text: words[positionals[0]], added: positionals[0] >= granted })
    text.add(positionals[0])
  }
  return { problem: null, scripts, text }
}

const SED_PROGRAMS: ReadonlySet<string> = new Set(['sed', 'gsed'])
const AWK_PROGRAMS: ReadonlySet<string> = new Set(['awk', 'gawk', 'mawk', 'nawk'])

/**
 * Indices of the words of a sed or awk command that are program text (or awk -F/-v values) rather
 * than paths, as the option rules read them: the path check skips these, and the script checks read
 * them instead (a sed `r FILE`). Empty for every other program: any word may then be a path.
 */
export function programTextWords(words: readonly string[], granted: number): ReadonlySet<number> {
  const program = programName(words[0] ?? '')
  if (SED_PROGRAMS.has(program)) return parseSed(words, granted).text
  if (AWK_PROGRAMS.has(program)) return parseAwk(words, granted).text
  return new Set()
}

/**
 * Why an awk program could run a command, write a file, or read what its words do not name (a file
 * through getline or ARGV, the environment), or null. A comparison `>` without print is fine.
 */
export function awkProgramProblem(program: string): string | null {
  if (program.includes('system')) return 'runs a command (system)'
  if (program.replace(/\|\|/g, '').includes('|')) return 'pipes to or from a command (|)'
  if (/\bprintf?\b/.test(program) && program.includes('>')) return 'writes to a file (print >)'
  if (program.includes('@')) return 'loads code (@load, @include)'
  if (/\bgetline\b/.test(program)) return 'reads a file or a command (getline)'
  if (/\b(ARGV|SYMTAB)\b/.test(program)) return 'changes which files it reads (ARGV)'
  if (/\bENVIRON\b/.test(program)) return 'reads the environment (ENVIRON)'
  if (/\bclose\s*\(/.test(program)) return 'opens and closes files or commands (close)'
  return null
}
