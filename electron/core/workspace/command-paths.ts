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

/** The first argument of `command` (run in `cwd`) that leads outside `realRoot`, or null when none does. */
export function argumentLeavingWorkspace(command: string, cwd: string, realRoot: string): ArgumentReach | null {
  if (process.platform === 'win32') return null // cmd.exe words are plain: the prefix check alone applies
  const words = shellWords(command)
  if (!words) return null // not plain words: no prefix matches it, so it is asked anyway
  for (const raw of words.slice(1)) {
    // An option's value may be a path too (`--file=../x`); a bare option is not.
    const word = raw.startsWith('-') ? (raw.includes('=') ? raw.slice(raw.indexOf('=') + 1) : '') : raw
    if (!word) continue
    if (EXPANDS.test(word)) return { word: raw, expands: true }
    const abs = isAbsolute(word) ? word : resolve(cwd, word)
    const real = realPathOf(abs)
    if (!isWithin(real, realRoot)) return { word: raw, leadsTo: real }
  }
  return null
}
