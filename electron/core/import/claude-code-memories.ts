import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { MemoryTarget } from '../memory/types'
import { parseFrontmatter } from '../skills/skill-file'
import { splitMarkdownEntries } from './markdown-entries'
import { readSourceText, type SourceEntry } from './memory-merge'
import { lineOf } from './skill-import'
import type { ImportProblem } from './types'

/** Claude Code's index of a project's memories: it only points at the memory files, so it is not memory itself. */
const INDEX_FILE = 'MEMORY.md'

/** Candidate entries found in a Claude Code home, by the Cairn store they would go to. */
/** Imports fill the two global files; a workspace's project memory is never imported from another agent. */
export type ClaudeCodeEntries = Record<Exclude<MemoryTarget, 'project'>, SourceEntry[]>

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

function sortedNames(dir: string): string[] {
  try {
    return readdirSync(dir).sort()
  } catch {
    return []
  }
}

/**
 * Every candidate memory in `home` (`~/.claude`): the typed memories of `projects/<project>/memory/*.md`
 * (front matter `name`, `description`, `type`; type `user` goes to USER.md, the others to MEMORY.md;
 * the body, its blank lines dropped, is one entry) and the `CLAUDE.md` files (`CLAUDE.md`,
 * `projects/<project>/CLAUDE.md`: instructions in free Markdown, split into entries by
 * {@link splitMarkdownEntries}, for MEMORY.md). What cannot be read is reported by file and line.
 */
export function readClaudeCodeEntries(home: string, problems: ImportProblem[]): ClaudeCodeEntries {
  const entries: ClaudeCodeEntries = { memory: [], user: [] }
  const instructions = (file: string): void => {
    const read = readSourceText(join(home, file), file)
    if ('problem' in read) problems.push(read.problem)
    else entries.memory.push(...splitMarkdownEntries(read.text).map((entry) => ({ ...entry, file })))
  }
  if (existsSync(join(home, 'CLAUDE.md'))) instructions('CLAUDE.md')
  const projects = join(home, 'projects')
  for (const project of sortedNames(projects)) {
    if (!isDirectory(join(projects, project))) continue
    if (existsSync(join(projects, project, 'CLAUDE.md'))) instructions(`projects/${project}/CLAUDE.md`)
    const memoryDir = join(projects, project, 'memory')
    for (const name of sortedNames(memoryDir)) {
      if (name === INDEX_FILE || !name.endsWith('.md') || !isDirectory(memoryDir) || isDirectory(join(memoryDir, name))) continue
      const file = `projects/${project}/memory/${name}`
      const read = readSourceText(join(memoryDir, name), file)
      if ('problem' in read) {
        problems.push(read.problem)
        continue
      }
      const memory = typedMemory(read.text, file, problems)
      if (memory) entries[memory.target].push(memory.entry)
    }
  }
  return entries
}

/** One typed memory file as an entry for its store, or null (with the problem) when it has none. */
function typedMemory(text: string, file: string, problems: ImportProblem[]): { target: keyof ClaudeCodeEntries; entry: SourceEntry } | null {
  let data: Record<string, unknown> = {}
  let body = text
  let bodyLine = 1
  if (text.startsWith('---')) {
    const parsed = parseFrontmatter(text)
    if (!parsed.ok) {
      problems.push({ file, ...lineOf(parsed.issue.message), message: `not imported: ${frontMatterError(parsed.issue.code, parsed.issue.message)}` })
      return null
    }
    data = parsed.data
    body = parsed.body
    bodyLine = lineCount(text.slice(0, text.length - body.length)) + 1
  }
  const leading = body.length - body.trimStart().length
  const condensed = body
    .split('\n')
    .filter((line) => line.trim())
    .join('\n')
    .trim()
  const description = typeof data.description === 'string' ? data.description.trim() : ''
  if (!condensed && !description) {
    problems.push({ file, message: 'not imported: it holds no text to remember.' })
    return null
  }
  return {
    target: data.type === 'user' ? 'user' : 'memory',
    entry: condensed
      ? { text: condensed, line: bodyLine + lineCount(body.slice(0, leading)), file }
      : { text: description, line: 1, file }
  }
}

function lineCount(text: string): number {
  let count = 0
  for (const char of text) if (char === '\n') count++
  return count
}

function frontMatterError(code: string, message: string): string {
  if (code === 'not_closed') return "its front matter is not closed (no '---' line after it)."
  if (code === 'not_mapping') return 'its front matter is not a list of key: value pairs.'
  return message
}
