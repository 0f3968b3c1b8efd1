import { existsSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import { shellWords } from '../../../shared/command-prefix'
import { isWithin, realPathOf } from './paths'

/**
 * Where a command's arguments lead, so a saved prefix (`cat`, `grep`, `ls`) grants what the user saw:
 * files in the workspace. A saved prefix checks the words; this checks where they point. An argument
 * that is, or goes through, a link out of the workspace (`docs/notes.txt → ~/.ssh/id_ed25519`), an
 * absolute or `..` path out of it, or a word the shell would expand (a glob, `~`) leads somewhere the
 * user did not see, so the command is asked about every time.
 */
export type ArgumentReach = { word: string; leadsTo: string } | { word: string; expands: true }

const EXPANDS = /[*?[\]{}]|^~/

/**
 * Options that make a program walk folders following links (`grep -R`, `rg -L`, `diff -r` into a
 * folder holding a link out): where those lead cannot be checked word by word, so they ask.
 */
const FOLLOWS_LINKS: Record<string, RegExp> = {
  grep: /^(-[a-zA-Z]*R[a-zA-Z]*|--dereference-recursive)$/,
  egrep: /^(-[a-zA-Z]*R[a-zA-Z]*|--dereference-recursive)$/,
  fgrep: /^(-[a-zA-Z]*R[a-zA-Z]*|--dereference-recursive)$/,
  rg: /^(-[a-zA-Z]*L[a-zA-Z]*|--follow)$/,
  diff: /^(-[a-zA-Z]*r[a-zA-Z]*|--recursive)$/,
  find: /^(-L|-follow)$/,
  ls: /^(-[a-zA-Z]*[RL][a-zA-Z]*|--recursive|--dereference)$/,
  du: /^(-[a-zA-Z]*L[a-zA-Z]*|--dereference)$/,
  tree: /^-[a-zA-Z]*l[a-zA-Z]*$/
}

/** The first argument of `command` (run in `cwd`) that leads outside `realRoot`, or null when none does. */
export function argumentLeavingWorkspace(command: string, cwd: string, realRoot: string): ArgumentReach | null {
  if (process.platform === 'win32') return null // cmd.exe words are plain: the prefix check alone applies
  const words = shellWords(command)
  if (!words) return null // not plain words: no prefix matches it, so it is asked anyway
  const follows = FOLLOWS_LINKS[words[0].split('/').pop() ?? '']
  let options = true
  for (const raw of words.slice(1)) {
    if (options && raw === '--') {
      options = false // what follows are operands, even when they start with "-"
      continue
    }
    if (options && follows?.test(raw)) return { word: raw, leadsTo: 'wherever the links below it lead' }
    // An option's value may be a path too (`--file=../x`, `-fdocs/x`); a bare option is not, unless it names a file that exists.
    const isOption = options && raw.startsWith('-') && raw.length > 1
    const word = !isOption ? raw : raw.includes('=') ? raw.slice(raw.indexOf('=') + 1) : existsSync(resolve(cwd, raw)) ? raw : ''
    if (!word) continue
    if (EXPANDS.test(word)) return { word: raw, expands: true }
    const abs = isAbsolute(word) ? word : resolve(cwd, word)
    const real = realPathOf(abs)
    if (!isWithin(real, realRoot)) return { word: raw, leadsTo: real }
  }
  return null
}
