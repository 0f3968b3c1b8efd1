import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync, realpathSync, statSync, type Dirent } from 'node:fs'
import { basename, dirname, join, relative, sep } from 'node:path'
import { readSkillLenient } from './skill-file'
import {
  EXCLUDED_DIRS,
  MAX_SCAN_DEPTH,
  MAX_SCAN_DIRS,
  SKILL_FILE,
  isSupportDir,
  toPosixRelative
} from './skill-paths'
import { screenSkill } from './skill-screening'

export interface SkillRoot {
  path: string
  readOnly: boolean
}

export interface SkillSummary {
  /** The skill's folder name: what every tool call uses. */
  name: string
  description: string
  /** Folders between the root and the skill (`a/b` for `a/b/name/SKILL.md`), null at the top. */
  category: string | null
  /** Absolute path of the SKILL.md. */
  path: string
  root: string
  readOnly: boolean
  warnings: string[]
  /** The front matter's own `name` when it differs from the folder name (skills written elsewhere). */
  frontmatterName: string | null
  /** MCP tools the skill relies on (`metadata.mcp-tools`: space-separated `server/tool` or exposed names). */
  mcpTools?: string[]
}

export interface SkillDiagnostic {
  path: string
  severity: 'warning' | 'skipped'
  reason: string
}

export type SkillChangeType = 'add' | 'change' | 'unlink'

interface Entry extends SkillSummary {
  rootIndex: number
  relPath: string
}

function fingerprint(text: string): string {
  return createHash('sha1').update(text).digest('hex')
}

function fingerprintOf(path: string): string | null {
  try {
    return fingerprint(readFileSync(path, 'utf8'))
  } catch {
    return null
  }
}

function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

function isDirLike(parent: string, entry: Dirent): boolean {
  if (entry.isDirectory()) return true
  if (!entry.isSymbolicLink()) return false
  try {
    return statSync(join(parent, entry.name)).isDirectory()
  } catch {
    return false
  }
}

function hasSkillFile(dir: string): boolean {
  try {
    return statSync(join(dir, SKILL_FILE)).isFile()
  } catch {
    return false
  }
}

/**
 * The in-memory index of every skill in every root: parsed leniently, one entry per skill folder,
 * including the shadowed ones (so removing a winner reveals the next). Names resolve root order first
 * (the data home shadows extra roots), then sorted path.
 */
export class SkillIndex {
  private readonly entries = new Map<string, Entry>()
  private readonly skipped = new Map<string, SkillDiagnostic>()
  private readonly nested = new Map<string, SkillDiagnostic>()
  /** Text hash of each SKILL.md as last read, so re-reading an unchanged file reports nothing. */
  private readonly fingerprints = new Map<string, string>()
  private winnersCache: Map<string, Entry> | null = null

  constructor(readonly roots: SkillRoot[]) {}

  /** Full synchronous scan of every root. */
  loadAll(): void {
    this.entries.clear()
    this.skipped.clear()
    this.nested.clear()
    this.fingerprints.clear()
    this.winnersCache = null
    this.roots.forEach((root, rootIndex) => {
      if (!existsSync(root.path)) return
      for (const dir of this.walk(root.path)) this.readSkill(rootIndex, dir)
    })
  }

  /** Skill folders under `rootPath`, sorted, pruning excluded folders and never entering a skill. */
  private walk(rootPath: string): string[] {
    const found: string[] = []
    const visited = new Set<string>()
    let budget = MAX_SCAN_DIRS
    const visit = (dir: string, depth: number): void => {
      if (budget-- <= 0 || depth > MAX_SCAN_DEPTH) return
      let real: string
      try {
        real = realpathSync(dir)
      } catch {
        return
      }
      if (visited.has(real)) return // symlink loop
      visited.add(real)
      let entries: Dirent[]
      try {
        entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => comparePaths(a.name, b.name))
      } catch {
        return
      }
      if (depth > 0 && hasSkillFile(dir)) {
        found.push(dir)
        this.findNested(dir, entries)
        return
      }
      if (depth === 0 && hasSkillFile(dir)) {
        this.skipped.set(join(dir, SKILL_FILE), {
          path: join(dir, SKILL_FILE),
          severity: 'skipped',
          reason: 'SKILL.md sits directly in a skills folder; move it into a folder named after the skill'
        })
      }
      for (const entry of entries) {
        if (EXCLUDED_DIRS.has(entry.name) || !isDirLike(dir, entry)) continue
        visit(join(dir, entry.name), depth + 1)
      }
    }
    visit(rootPath, 0)
    return found
  }

  /** A SKILL.md deeper inside a skill (outside its support folders) is not a skill; say so in diagnostics. */
  private findNested(skillDir: string, entries: Dirent[]): void {
    const search = (dir: string, depth: number): void => {
      if (depth > 3) return
      let children: Dirent[]
      try {
        children = readdirSync(dir, { withFileTypes: true })
      } catch {
        return
      }
      for (const child of children) {
        if (EXCLUDED_DIRS.has(child.name) || !isDirLike(dir, child)) continue
        const path = join(dir, child.name)
        if (hasSkillFile(path)) {
          this.nested.set(join(path, SKILL_FILE), {
            path: join(path, SKILL_FILE),
            severity: 'skipped',
            reason: `inside the skill folder ${skillDir}; a skill cannot contain another skill, so move this folder out of it`
          })
        }
        search(path, depth + 1)
      }
    }
    for (const entry of entries) {
      if (isSupportDir(entry.name) || EXCLUDED_DIRS.has(entry.name) || !isDirLike(skillDir, entry)) continue
      const path = join(skillDir, entry.name)
      if (hasSkillFile(path)) {
        this.nested.set(join(path, SKILL_FILE), {
          path: join(path, SKILL_FILE),
          severity: 'skipped',
          reason: `inside the skill folder ${skillDir}; a skill cannot contain another skill, so move this folder out of it`
        })
      }
      search(path, 1)
    }
  }

  /** Parses one skill folder into an entry (or a skipped diagnostic). Returns whether it loaded. */
  private readSkill(rootIndex: number, dir: string): boolean {
    const root = this.roots[rootIndex]
    const skillMd = join(dir, SKILL_FILE)
    this.entries.delete(dir)
    this.skipped.delete(skillMd)
    this.winnersCache = null
    let text: string
    try {
      text = readFileSync(skillMd, 'utf8')
    } catch (error) {
      this.skipped.set(skillMd, { path: skillMd, severity: 'skipped', reason: `could not be read: ${(error as Error).message}` })
      return false
    }
    this.fingerprints.set(skillMd, fingerprint(text))
    const name = basename(dir)
    const parsed = readSkillLenient(text, name)
    if (!parsed.ok) {
      this.skipped.set(skillMd, { path: skillMd, severity: 'skipped', reason: parsed.reason })
      return false
    }
    // Invisible characters anywhere, and injection-like text in a read-only root, keep the skill out of
    // the index, the prompt, the hints and skill_view (see screenSkill); the watcher re-reads it here too.
    const screening = screenSkill(text.replace(/^\uFEFF/, ''), parsed.frontmatter, root.readOnly)
    if (screening.skip !== null) {
      this.skipped.set(skillMd, { path: skillMd, severity: 'skipped', reason: screening.skip })
      return false
    }
    const relPath = toPosixRelative(root.path, dir)
    const parts = relPath.split('/')
    this.entries.set(dir, {
      name,
      description: parsed.description,
      category: parts.length > 1 ? parts.slice(0, -1).join('/') : null,
      path: skillMd,
      root: root.path,
      readOnly: root.readOnly,
      warnings: [...parsed.warnings, ...screening.warnings],
      frontmatterName: parsed.frontmatterName !== null && parsed.frontmatterName !== name ? parsed.frontmatterName : null,
      ...mcpToolsOf(parsed.frontmatter),
      rootIndex,
      relPath
    })
    return true
  }

  rootIndexOf(path: string): number {
    let best = -1
    let bestLength = -1
    this.roots.forEach((root, index) => {
      const rel = relative(root.path, path)
      if (rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep) && root.path.length > bestLength) {
        best = index
        bestLength = root.path.length
      }
    })
    return best
  }

  /**
   * Re-reads the skill whose SKILL.md is `skillMd` after it was added, changed or removed (by Cairn or
   * by anything else). Returns what happened to the index, or null when the path is not a skill.
   */
  refreshSkillFile(skillMd: string): { type: SkillChangeType; name: string } | null {
    if (basename(skillMd) !== SKILL_FILE) return null
    const rootIndex = this.rootIndexOf(skillMd)
    if (rootIndex < 0) return null
    const root = this.roots[rootIndex]
    const dir = dirname(skillMd)
    const rel = toPosixRelative(root.path, dir)
    if (rel === '' || rel.startsWith('..')) return null
    const parts = rel.split('/')
    if (parts.length > MAX_SCAN_DEPTH || parts.some((part) => EXCLUDED_DIRS.has(part))) return null
    for (let i = 1; i < parts.length; i++) {
      if (hasSkillFile(join(root.path, ...parts.slice(0, i)))) return null // inside another skill
    }
    const known = this.entries.has(dir) || this.skipped.has(skillMd)
    if (!hasSkillFile(dir)) {
      this.entries.delete(dir)
      this.skipped.delete(skillMd)
      this.fingerprints.delete(skillMd)
      this.winnersCache = null
      return known ? { type: 'unlink', name: basename(dir) } : null
    }
    if (known && this.fingerprints.get(skillMd) === fingerprintOf(skillMd)) return null
    this.readSkill(rootIndex, dir)
    return { type: known ? 'change' : 'add', name: basename(dir) }
  }

  /**
   * The SKILL.md of the skill that `path` belongs to: `path` itself when it names one (present or
   * not), else that of the nearest folder above it, inside its root, holding a SKILL.md. Null when
   * the path is in no root or in no skill folder.
   */
  skillFileFor(path: string): string | null {
    if (basename(path) === SKILL_FILE) return path
    const rootIndex = this.rootIndexOf(path)
    if (rootIndex < 0) return null
    const inRoot = this.roots[rootIndex].path + sep
    for (let dir = dirname(path); dir.startsWith(inRoot); dir = dirname(dir)) {
      if (hasSkillFile(dir)) return join(dir, SKILL_FILE)
    }
    return null
  }

  /** Drops every skill at or under `dir` (a folder was removed or renamed away). */
  removeUnder(dir: string): string[] {
    const removed: string[] = []
    const prefix = dir.endsWith(sep) ? dir : dir + sep
    for (const key of [...this.entries.keys()]) {
      if (key === dir || key.startsWith(prefix)) {
        removed.push(basename(key))
        this.entries.delete(key)
      }
    }
    for (const map of [this.skipped, this.nested, this.fingerprints]) {
      for (const key of [...map.keys()]) if (key.startsWith(prefix)) map.delete(key)
    }
    this.winnersCache = null
    return removed
  }

  private winners(): Map<string, Entry> {
    if (this.winnersCache) return this.winnersCache
    const byName = new Map<string, Entry>()
    for (const entry of this.sortedEntries()) if (!byName.has(entry.name)) byName.set(entry.name, entry)
    this.winnersCache = byName
    return byName
  }

  private sortedEntries(): Entry[] {
    return [...this.entries.values()].sort((a, b) => a.rootIndex - b.rootIndex || comparePaths(a.relPath, b.relPath))
  }

  /** Visible skills, sorted by category (uncategorised first) then name. */
  list(): SkillSummary[] {
    return [...this.winners().values()]
      .sort((a, b) => comparePaths(a.category ?? '', b.category ?? '') || comparePaths(a.name, b.name))
      .map(toSummary)
  }

  get(name: string): SkillSummary | null {
    const entry = this.winners().get(name)
    return entry ? toSummary(entry) : null
  }

  /** A skill whose front matter calls it `name` (written elsewhere with a name ≠ folder), when unique. */
  getByFrontmatterName(name: string): SkillSummary | null {
    const matches = [...this.winners().values()].filter((entry) => entry.frontmatterName === name)
    return matches.length === 1 ? toSummary(matches[0]) : null
  }

  /** Skills in the data home root named `name` (there should be at most one). */
  inRoot(rootIndex: number, name: string): SkillSummary[] {
    return this.sortedEntries().filter((entry) => entry.rootIndex === rootIndex && entry.name === name).map(toSummary)
  }

  diagnostics(): SkillDiagnostic[] {
    const out: SkillDiagnostic[] = [...this.skipped.values(), ...this.nested.values()]
    const winners = this.winners()
    for (const entry of this.sortedEntries()) {
      for (const warning of entry.warnings) out.push({ path: entry.path, severity: 'warning', reason: warning })
      const winner = winners.get(entry.name)
      if (!winner || winner === entry) continue
      out.push({
        path: entry.path,
        severity: 'warning',
        reason: winner.rootIndex === entry.rootIndex
          ? `another skill named '${entry.name}' in the same folder is used instead (${winner.path}); rename one of the two folders`
          : `shadowed by the skill '${entry.name}' at ${winner.path}, which takes precedence`
      })
    }
    return out.sort((a, b) => comparePaths(a.path, b.path))
  }
}

function toSummary(entry: Entry): SkillSummary {
  return {
    name: entry.name,
    description: entry.description,
    category: entry.category,
    path: entry.path,
    root: entry.root,
    readOnly: entry.readOnly,
    warnings: [...entry.warnings],
    frontmatterName: entry.frontmatterName,
    ...(entry.mcpTools ? { mcpTools: [...entry.mcpTools] } : {})
  }
}

function mcpToolsOf(frontmatter: Record<string, unknown>): { mcpTools?: string[] } {
  const metadata = frontmatter.metadata
  const value = typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>)['mcp-tools'] : undefined
  const tools = typeof value === 'string' ? value.split(/[\s,]+/).filter(Boolean) : []
  return tools.length ? { mcpTools: tools } : {}
}
