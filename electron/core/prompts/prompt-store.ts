import { lstatSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { savedPromptSchema } from '../../../shared/ipc/contract-prompts'
import { issueLines } from '../../../shared/zod-issues'
import { KeyedError } from '../../../shared/keyed-error'
import type { ErrorKey, ErrorParamsByKey } from '../../../shared/error-keys'
import { MAX_PROMPT_FILE_BYTES, PROMPT_NAME, promptVariables, type PromptFileProblem, type SavedPrompt } from '../../../shared/prompts'
import { isAtomicTempName, writeFileAtomicText } from '../fs/atomic'
import { withLock } from '../fs/lock'
import { symlinkBelow } from '../fs/symlinks'
import { scanForThreats } from '../security/threats'
import { formatPromptFile, parsePromptFile } from './prompt-file'

/** The folder of the data home saved prompts live in. */
export const PROMPTS_DIR = 'prompts'

/** `prompts/<name>.md` relative to the home, or null for any other path. */
export function promptNameOfPath(path: string): string | null {
  const match = /^prompts\/([a-z0-9][a-z0-9-]{0,63})\.md$/.exec(path)
  return match ? match[1] : null
}

type PromptErrorKey = Extract<ErrorKey, `prompts.${string}`>

/** A prompt that could not be read or written; `code` says what kind, the key words it. */
export class PromptError<K extends PromptErrorKey = PromptErrorKey> extends KeyedError<K> {
  constructor(
    readonly code: 'exists' | 'missing' | 'refused' | 'invalid' | 'link',
    key: K,
    params: ErrorParamsByKey[K]
  ) {
    super(key, params)
    this.name = 'PromptError'
  }
}

export interface PromptList {
  prompts: SavedPrompt[]
  /** Files that could not be read: reported, never removed, and the other prompts are listed as usual. */
  problems: PromptFileProblem[]
}

export interface SavePromptOptions {
  /** The prompt's name before this save: the same name overwrites it, another renames it. Absent: a new prompt, refused when the name is taken. */
  previousName?: string
  /** Run the threat scan (text that came from elsewhere: a sync, a file); the user's own typing is theirs. */
  screen?: boolean
}

/**
 * The prompt library: `<home>/prompts/<name>.md`, read from disk at each call (so edits made in an
 * editor or brought by a sync show up at the next listing), written atomically under a lock per name.
 */
export class PromptStore {
  readonly dir: string

  constructor(private readonly home: string) {
    this.dir = join(home, PROMPTS_DIR)
  }

  list(): PromptList {
    const out: PromptList = { prompts: [], problems: [] }
    let names: string[]
    try {
      names = readdirSync(this.dir).sort()
    } catch {
      return out
    }
    for (const fileName of names) {
      if (!fileName.endsWith('.md') || fileName.startsWith('.') || isAtomicTempName(fileName)) continue
      const read = this.readFile(fileName)
      if (read === null) continue
      if ('problem' in read) out.problems.push(read.problem)
      else out.prompts.push(read.prompt)
    }
    out.prompts.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    return out
  }

  /** One prompt; a missing or unreadable one is an error. */
  read(name: string): SavedPrompt {
    const read = PROMPT_NAME.test(name) ? this.readFile(`${name}.md`) : null
    if (read === null) throw new PromptError('missing', 'prompts.missing', { name })
    if ('problem' in read) throw new PromptError('invalid', 'prompts.invalid', { name, issues: `${read.problem.issue}: ${read.problem.detail}` })
    return read.prompt
  }

  async save(input: SavedPrompt, options: SavePromptOptions = {}): Promise<SavedPrompt> {
    const checked = savedPromptSchema.safeParse(input)
    if (!checked.success) throw new PromptError('invalid', 'prompts.invalid', { name: String(input.name), issues: issueLines(checked.error, { root: 'prompt', max: 3 }).join('; ') })
    const prompt: SavedPrompt = { ...checked.data, variables: promptVariables(checked.data.body, checked.data.variables) }
    const text = formatPromptFile(prompt)
    await this.writeText(prompt.name, text, options)
    return prompt
  }

  /**
   * A prompt file's text as it came (a sync keeps the other device's bytes, so both converge): written
   * only when it reads back as a valid prompt of that name.
   */
  async writeText(name: string, text: string, options: SavePromptOptions = {}): Promise<void> {
    const parsed = parsePromptFile(text, name)
    if (!parsed.ok) throw new PromptError('invalid', 'prompts.invalid', { name, issues: `${parsed.issue}: ${parsed.detail}` })
    if (options.screen) {
      const prompt = parsed.prompt
      const [finding] = scanForThreats([prompt.description, ...prompt.variables.flatMap((v) => [v.description ?? '', v.default ?? '']), prompt.body].join('\n'), 'context')
      if (finding) throw new PromptError('refused', 'prompts.refused', { name, pattern: finding.id })
    }
    const path = this.pathOf(name)
    const link = symlinkBelow(this.home, path)
    if (link) throw new PromptError('link', 'prompts.link', { path: link })
    await withLock(
      path,
      async () => {
        const renaming = options.previousName !== undefined && options.previousName !== name
        if ((options.previousName === undefined || renaming) && exists(path)) throw new PromptError('exists', 'prompts.exists', { name })
        await writeFileAtomicText(path, text)
        if (renaming && PROMPT_NAME.test(options.previousName!)) rmSync(this.pathOf(options.previousName!), { force: true })
      },
      { lockfilePath: this.lockOf(name) }
    )
  }

  async delete(name: string): Promise<void> {
    const path = this.pathOf(name)
    if (!PROMPT_NAME.test(name) || !exists(path)) throw new PromptError('missing', 'prompts.missing', { name })
    const link = symlinkBelow(this.home, path)
    if (link) throw new PromptError('link', 'prompts.link', { path: link })
    await withLock(path, () => rmSync(path, { force: true }), { lockfilePath: this.lockOf(name) })
  }

  private pathOf(name: string): string {
    return join(this.dir, `${name}.md`)
  }

  private lockOf(name: string): string {
    return join(this.home, '.locks', 'prompts', name)
  }

  /** A file of the folder read as a prompt, a problem, or null when it is not a regular file. */
  private readFile(fileName: string): { prompt: SavedPrompt } | { problem: PromptFileProblem } | null {
    const path = join(this.dir, fileName)
    const file = `${PROMPTS_DIR}/${fileName}`
    let size: number
    try {
      const stats = lstatSync(path)
      // A link is never followed: a prompt is the home's own file.
      if (!stats.isFile()) return null
      size = stats.size
    } catch {
      return null
    }
    const name = fileName.slice(0, -'.md'.length)
    if (!PROMPT_NAME.test(name)) return { problem: { file, issue: 'invalid', detail: `name: ${name}` } }
    if (size > MAX_PROMPT_FILE_BYTES) return { problem: { file, issue: 'too_large', detail: `${size} > ${MAX_PROMPT_FILE_BYTES}` } }
    let text: string
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(path))
    } catch {
      return { problem: { file, issue: 'not_utf8', detail: '' } }
    }
    const parsed = parsePromptFile(text, name)
    return parsed.ok ? { prompt: parsed.prompt } : { problem: { file, issue: parsed.issue, detail: parsed.detail } }
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}
