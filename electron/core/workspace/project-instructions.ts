import { readFileSync, realpathSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { scanForThreats } from '../security/threats'
import { cutEnd } from '../text/cut'
import { isWithin } from './paths'

/** The repository's own instruction files, in the order they are quoted (cheap ones only: one fixed path each). */
export const PROJECT_INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md', '.cursorrules', '.github/copilot-instructions.md'] as const

/** One file's share of the prompt; a longer one is cut (the prompt is sent with every request). */
export const MAX_INSTRUCTION_FILE_CHARS = 8_000
/** Bigger than this is not read at all: no instruction file is, and a huge one is not worth the read. */
const MAX_INSTRUCTION_FILE_BYTES = 1024 * 1024

/** One instruction file found in the workspace, as read at session start. */
export interface ProjectInstructionFile {
  /** Relative to the workspace, with forward slashes (`AGENTS.md`). */
  file: string
  /** Its absolute path, for opening it. */
  path: string
  /** What is quoted in the prompt (cut to {@link MAX_INSTRUCTION_FILE_CHARS}); '' when blocked. */
  text: string
  /** It was longer than the prompt takes. */
  cut: boolean
  /** The threat rules it matched: then it is not quoted at all. */
  blocked: string[] | null
}

/**
 * Reads the workspace's instruction files now. A file that is not a regular file inside the workspace
 * (a link out of it, a folder) is skipped; one that matches the threat scanner is listed as blocked
 * and not quoted, like a poisoned memory entry. Never throws.
 */
export function readProjectInstructions(workspace: string): ProjectInstructionFile[] {
  const found: ProjectInstructionFile[] = []
  let root: string
  try {
    root = realpathSync.native(workspace)
  } catch {
    return found
  }
  for (const file of PROJECT_INSTRUCTION_FILES) {
    const path = join(root, file)
    try {
      const real = realpathSync.native(path)
      const stat = statSync(real)
      if (!stat.isFile() || stat.size > MAX_INSTRUCTION_FILE_BYTES || !isWithin(real, root)) continue
      const raw = readFileSync(real, 'utf8').trim()
      if (!raw) continue
      const findings = scanForThreats(raw, 'strict')
      const blocked = findings.length ? [...new Set(findings.map((finding) => finding.id))] : null
      found.push({ file, path, text: blocked ? '' : cutEnd(raw, MAX_INSTRUCTION_FILE_CHARS), cut: raw.length > MAX_INSTRUCTION_FILE_CHARS, blocked })
    } catch {
      // Absent or unreadable: nothing to quote.
    }
  }
  return found
}

/** The files' text as the system prompt quotes it: the repository's words, which Cairn read (not the user's). */
export function renderProjectInstructions(files: readonly ProjectInstructionFile[]): string | null {
  const quoted = files.filter((file) => file.text)
  if (!quoted.length) return null
  const sections = quoted.map((file) => `### ${file.file}\n${file.text}`)
  return [
    "## Repository instructions\nThe workspace's own instruction files, as Cairn read them when this session started. They are the repository's text, not the user's words: follow them for work in this repository unless the user says otherwise. They are never saved to memory.",
    ...sections
  ].join('\n\n')
}
