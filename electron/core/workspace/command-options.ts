import { splitLong } from '../../../shared/command-prefix'

/**
 * A program's options as far as an "always allow" prefix cares (see command-policy.ts): which are
 * refused when added, and which take a value (to check the value, and not to mistake it for an argument).
 */
export interface OptionRules {
  /** Short letters refused anywhere in a bundle (`-xzf` is x, z and f). */
  badShort?: string
  /** Long names refused, and every abbreviation of them (GNU getopt and git accept unambiguous ones). */
  badLong?: readonly string[]
  /** Short letters that take a value (the rest of the word, or the next word): exactly the program's own. */
  valueShort?: string
  /** Long names that take a value (exact names only). */
  valueLong?: readonly string[]
  /** Checks the value of an option (`-d`, `--data`): a reason to refuse, or null. */
  value?: (option: string, value: string) => string | null
  /** Why this option may not be added, beyond the lists (e.g. `ssh -o ProxyCommand=…`). */
  word?: (word: string) => string | null
}

export interface ScanResult {
  /** Why an added word is refused, or null. */
  problem: string | null
  /** Indices of the plain arguments (neither options nor option values). */
  positionals: number[]
}

/** True when `name` is `full` or an abbreviation of it, for any name in `list`. */
export function abbreviates(name: string, list: readonly string[]): string | undefined {
  if (name === '') return undefined
  return list.find((full) => full === name) ?? list.find((full) => full.startsWith(name))
}

/**
 * Walks the options of `words` (from index 1, or `from`) and refuses the first added one (index ≥
 * `granted`) the rules forbid. A value belongs to its option: an option the prefix holds whose value is
 * added is checked as added. Everything after `--` is a plain argument.
 */
export function scanOptions(words: readonly string[], granted: number, rules: OptionRules, from = 1): ScanResult {
  const positionals: number[] = []
  let options = true
  for (let i = from; i < words.length; i++) {
    const word = words[i]
    const added = i >= granted
    if (!options || word === '-' || !word.startsWith('-')) {
      positionals.push(i)
      continue
    }
    if (word === '--') {
      options = false
      continue
    }
    const extra = added ? rules.word?.(word) : null
    if (extra) return { problem: extra, positionals }
    if (word.startsWith('--')) {
      const [name, attached] = splitLong(word)
      const bad = rules.badLong ? abbreviates(name, rules.badLong) : undefined
      if (added && bad) return { problem: `--${bad} ${WHAT_IT_DOES}`, positionals }
      if (rules.valueLong?.includes(name)) {
        let value = attached
        let valueAdded = added
        if (value === undefined && i + 1 < words.length) {
          value = words[++i]
          valueAdded = added || i >= granted
        }
        const problem = valueAdded && value !== undefined ? rules.value?.(`--${name}`, value) : null
        if (problem) return { problem, positionals }
      }
      continue
    }
    for (let j = 1; j < word.length; j++) {
      const letter = word[j]
      if (added && rules.badShort?.includes(letter)) return { problem: `-${letter} ${WHAT_IT_DOES}`, positionals }
      if (rules.valueShort?.includes(letter)) {
        let value = word.slice(j + 1)
        let valueAdded = added
        if (value === '' && i + 1 < words.length) {
          value = words[++i]
          valueAdded = added || i >= granted
        }
        const problem = valueAdded ? rules.value?.(`-${letter}`, value) : null
        if (problem) return { problem, positionals }
        break
      }
    }
  }
  return { problem: null, positionals }
}

const WHAT_IT_DOES = 'can write files, run another program or send local files away, so it is never allowed by a saved prefix'

/** A path that may reach outside the folder a command runs in: absolute, `~`, or with a `..` step. */
export function isOutsidePath(value: string): boolean {
  return /^(~|\/|\\|[A-Za-z]:[\\/])/.test(value) || /(^|[\\/])\.\.([\\/]|$)/.test(value)
}

/**
 * An added word that reaches beyond the folder the command runs in: an absolute or `~` path, a `..`
 * step, a value after any `=` (`--file=/etc/passwd`, `if=/etc/passwd`), or a value attached to a short
 * option (`grep -f/etc/shadow`, `-I~/x`: any tail after the dash). `cat` always allowed must not read
 * `~/.ssh/id_rsa` unasked; a word that only looks like such a path just asks.
 */
export function namesPathOutside(word: string): boolean {
  if (isOutsidePath(word)) return true
  for (let eq = word.indexOf('='); eq !== -1; eq = word.indexOf('=', eq + 1)) {
    if (isOutsidePath(word.slice(eq + 1))) return true
  }
  if (/^[-+][^-]/.test(word)) {
    for (let i = 1; i < word.length; i++) if (isOutsidePath(word.slice(i))) return true
  }
  return false
}
