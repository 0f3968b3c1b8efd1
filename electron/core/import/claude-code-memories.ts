import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { MemoryTarget } from '../memory/types'
import { parseFrontmatter } from '../skills/skill-file'
import { splitMarkdownEntries } from './markdown-entries'
import { readSourceText, type SourceEntry } from './memory-merge'
import { workspaceOfClaudeProject } from './claude-code-projects'
import { lineOf } from './skill-import'
import type { ImportProblem } from './types'

/** Claude Code's index of a project's memories: it only points at the memory files, so it is not memory itself. */
const INDEX_FILE = 'MEMORY.md'

/**
 * Candidate entries found in a Claude Code home, by the Cairn store they would go to: the two global
 * files, and the project memory of each workspace a project folder names that exists on this machine.
 */
export type ClaudeCodeEntries = Record<Exclude<MemoryTarget, 'project'>, SourceEntry[]> & {
  /** By the workspace's path. */
  projects: Map<string, SourceEntry[]>
}

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
 * {@link splitMarkdownEntries}, for MEMORY.md). A project folder whose name decodes to a folder on this
 * machine ({@link workspaceOfClaudeProject}) sends its CLAUDE.md and its memories, except those about
 * the user (type `user`, for USER.md), to that workspace's project memory. What cannot be read is
 * reported by file and line.
 */
export function readClaudeCodeEntries(home: string, problems: ImportProblem[]): ClaudeCodeEntries {
  const entries: ClaudeCodeEntries = { memory: [], user: [], projects: new Map() }
  const instructions = (file: string, into: SourceEntry[]): void => {
    const read = readSourceText(join(home, file), file)
    if ('problem' in read) problems.push(read.problem)
    else into.push(...splitMarkdownEntries(read.text).map((entry) => ({ ...entry, file })))
  }
  if (existsSync(join(home, 'CLAUDE.md'))) instructions('CLAUDE.md', entries.memory)
  const projects = join(home, 'projects')
  for (const project of sortedNames(projects)) {
    if (!isDirectory(join(projects, project))) continue
    const workspace = workspaceOfClaudeProject(project)
    const projectEntries = workspace ? (entries.projects.get(workspace) ?? []) : entries.memory
    if (workspace) entries.projects.set(workspace, projectEntries)
    if (existsSync(join(projects, project, 'CLAUDE.md'))) instructions(`projects/${project}/CLAUDE.md`, projectEntries)
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
      if (memory) (memory.target === 'user' ? entries.user : projectEntries).push(memory.entry)
    }
    if (workspace && projectEntries.length === 0) entries.projects.delete(workspace)
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
