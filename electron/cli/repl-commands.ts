import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { CairnCore } from '../core/cairn'
import { Inbox } from '../core/learning/host/proposal-apply'
import { ModelListCache, modelCacheFile } from '../core/provider/model-list'
import { resolveProviderSettings } from '../core/provider/provider-settings'
import { inboxWaitingLine, proposalLine } from './commands/inbox-format'

export const REPL_HELP = `Type a message and press Enter. Commands:
  /help         this list
  /new          start a new conversation (the one before is reviewed for learning)
  /model        the model this conversation answers with, and the models the provider lists
  /model NAME   answer with NAME in this conversation, from its next turn
  /inbox        the changes learning proposed that wait for you, and how to decide on them
  /p NAME       send a saved prompt (asks for its variables); /p lists them, /NAME works too
  /output       the last command's whole output (under a command only its last lines are shown)
  /exit         leave (so does Ctrl+D)
↑ and ↓ go through earlier prompts. Ctrl+C stops a running answer.
`

/** How many proposals `/inbox` lists before pointing to `cairn inbox`. */
const INBOX_SHOWN = 5
/** How many models `/model` lists before saying how many more there are. */
const MODELS_SHOWN = 40

/** `/inbox`: how many changes wait, the oldest few, and the commands that decide on them. */
export function inboxSummary(core: CairnCore, now = Date.now()): string {
  const pending = new Inbox(core).list({ states: ['pending'], limit: 500, oldestFirst: true })
  if (pending.length === 0) return 'Nothing waits in the Inbox.\n'
  const lines = [`${inboxWaitingLine(pending.length)}:`, ...pending.slice(0, INBOX_SHOWN).map((proposal) => `  ${proposalLine(proposal, now).trimEnd()}`)]
  if (pending.length > INBOX_SHOWN) lines.push(`  … and ${pending.length - INBOX_SHOWN} more (cairn inbox lists them all)`)
  lines.push('See one: cairn inbox show <id>. Decide: cairn inbox approve <id> | --all, cairn inbox reject <id>')
  return `${lines.join('\n')}\n`
}

/**
 * The model a conversation answers with: the one stored with it (`sessions.model`, which `/model NAME`
 * sets), else `chosen` for a conversation not started yet, else the configured one.
 */
export function conversationModel(core: CairnCore, env: NodeJS.ProcessEnv, sessionId: string | undefined, chosen: string | null): string {
  const stored = sessionId ? core.sessions.get(sessionId)?.model?.trim() : null
  return stored || chosen || resolveProviderSettings(core.config.get(), env).model
}

/** `/model`: the conversation's model, then the provider's list (cached in the data home, fetched the first time). */
export async function modelReport(core: CairnCore, env: NodeJS.ProcessEnv, current: string): Promise<string> {
  const settings = resolveProviderSettings(core.config.get(), env)
  const list = await new ModelListCache(modelCacheFile(core.paths.root)).list(settings)
  const lines = [`Model: ${current || '(none set: give one with /model NAME)'}`]
  if (list.error) lines.push(`Could not fetch the models ${settings.baseURL} offers (${list.error})${list.models.length ? '; as listed before:' : '.'}`)
  else if (list.models.length === 0) lines.push(`${settings.baseURL} lists no models: type the name, e.g. /model NAME`)
  else lines.push(`Models ${settings.baseURL} offers:`)
  for (const model of list.models.slice(0, MODELS_SHOWN)) lines.push(`  ${model === current ? '*' : ' '} ${model}`)
  if (list.models.length > MODELS_SHOWN) lines.push(`  … and ${list.models.length - MODELS_SHOWN} more`)
  lines.push('Switch with: /model NAME')
  return `${lines.join('\n')}\n`
}

/** Why NAME cannot be a model name, or null when it can. */
export function modelNameProblem(name: string): string | null {
  if (/\s/.test(name)) return `A model name has no spaces: "${name}".`
  return name.length > 200 ? 'That model name is too long (200 characters at most).' : null
}

/** Whether the provider's list, as last fetched, is known not to have NAME (no list: unknown). */
export function unlistedModel(core: CairnCore, env: NodeJS.ProcessEnv, name: string): boolean {
  const list = new ModelListCache(modelCacheFile(core.paths.root)).cached(resolveProviderSettings(core.config.get(), env).baseURL)
  return Boolean(list && list.models.length > 0 && !list.models.includes(name))
}

/** How many earlier prompts `<home>/cli-history` keeps. */
export const HISTORY_SIZE = 500

/**
 * The interactive session's prompts across runs, for ↑/↓: `<home>/cli-history`, one prompt a line,
 * oldest first, the newest HISTORY_SIZE kept; private to the user (mode 600) since prompts are.
 */
export class PromptHistory {
  readonly file: string

  constructor(homeRoot: string) {
    this.file = join(homeRoot, 'cli-history')
  }

  /** Newest first, as readline takes it; none when the file is missing or unreadable. */
  load(): string[] {
    let text: string
    try {
      text = readFileSync(this.file, 'utf8')
    } catch {
      return []
    }
    return text.split('\n').filter((line) => line.trim()).slice(-HISTORY_SIZE).reverse()
  }

  /** Writes readline's history (newest first); gives the error message when it could not. */
  save(newestFirst: readonly string[]): string | null {
    try {
      mkdirSync(dirname(this.file), { recursive: true })
      writeFileSync(this.file, newestFirst.slice(0, HISTORY_SIZE).reverse().join('\n') + '\n', { mode: 0o600 })
      return null
    } catch (error) {
      return (error as Error).message
    }
  }
}
