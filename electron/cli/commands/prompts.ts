import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { translator, type Translate } from '../../../shared/i18n'
import type { PromptFileProblem } from '../../../shared/prompts'
import { visibleControls } from '../../../shared/visible-text'
import { ConfigStore } from '../../core/config/config-store'
import { homePaths } from '../../core/config/home'
import { formatPromptFile, parsePromptFile, PromptError, PromptStore } from '../../core/prompts'
import { parseCommandArgs } from '../args'
import { oneLine, printJson, UsageError } from '../io'
import { keyedFailure, wordedFailure } from '../worded-failure'
import type { CliCommand, CliContext } from './types'

export const promptsCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] prompts [list] [--json]
       cairn [--home DIR] prompts show <name> [--json]
       cairn [--home DIR] prompts add <name> --file FILE [--description TEXT] [--replace]
       cairn [--home DIR] prompts rm <name>

The prompt library: saved prompts in <home>/prompts/<name>.md (YAML front matter with name,
description and variables, then the text with {{variable}} placeholders). They sync like skills.
In the app, type / at the start of a message; in cairn chat, /p <name>.

  add     FILE is the prompt's text, or a whole prompt file (its front matter is kept, named <name>);
          --replace overwrites a prompt of that name. Text from a file is threat-scanned.
`,
  async run(ctx, args) {
    const [action = 'list', ...rest] = args[0]?.startsWith('-') ? ['list', ...args] : args
    const store = new PromptStore(ctx.home)
    const t = translator(languageOf(ctx))
    try {
      if (action === 'list') return list(ctx, store, t, rest)
      if (action === 'show') return show(ctx, store, rest)
      if (action === 'add') return await add(ctx, store, t, rest)
      if (action === 'rm' || action === 'remove' || action === 'delete') return await remove(ctx, store, t, rest)
    } catch (error) {
      if (error instanceof PromptError) throw keyedFailure(error, error.code === 'missing' ? 'cairn prompts' : undefined)
      throw error
    }
    throw new UsageError(`Unknown prompts action "${action}". Use list, show, add or rm.`)
  }
}

function languageOf(ctx: CliContext) {
  try {
    return new ConfigStore(homePaths(ctx.home).configFile).get().ui.language
  } catch {
    return 'en' as const
  }
}

function list(ctx: CliContext, store: PromptStore, t: Translate, args: string[]): number {
  const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } })
  if (positionals.length) throw new UsageError('cairn prompts list takes no names: show one with cairn prompts show <name>.')
  const { prompts, problems } = store.list()
  if (values.json) {
    printJson(ctx.io, { prompts, problems })
    return 0
  }
  if (prompts.length === 0 && problems.length === 0) ctx.io.out(`${t('prompts.cli.none')}\n`)
  const width = Math.min(24, Math.max(0, ...prompts.map((prompt) => prompt.name.length)))
  for (const prompt of prompts) {
    const variables = prompt.variables.length ? `  (${t('prompts.cli.variables')}: ${prompt.variables.map((variable) => variable.name).join(', ')})` : ''
    // A prompt's words come from a file (synced, edited by hand): shown with their control characters written out.
    ctx.io.out(`${prompt.name.padEnd(width)}  ${visibleControls(oneLine(prompt.description || prompt.body, 70), { newlines: false })}${variables}\n`)
  }
  for (const problem of problems) ctx.io.err(`cairn: ${visibleControls(problemWords(problem, t), { newlines: false })}\n`)
  return 0
}

export function problemWords(problem: PromptFileProblem, t: Translate): string {
  return t('prompts.problem', { file: problem.file, why: t(`prompts.issue.${problem.issue}`), detail: problem.detail || '—' })
}

function show(ctx: CliContext, store: PromptStore, args: string[]): number {
  const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } })
  if (positionals.length !== 1) throw new UsageError('Name one prompt: cairn prompts show <name>. List them with: cairn prompts')
  const prompt = store.read(positionals[0])
  if (values.json) printJson(ctx.io, prompt)
  else ctx.io.out(visibleControls(formatPromptFile(prompt), { newlines: true }))
  return 0
}

async function add(ctx: CliContext, store: PromptStore, t: Translate, args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { file: { type: 'string' }, description: { type: 'string' }, replace: { type: 'boolean' } })
  if (positionals.length !== 1 || !values.file) throw new UsageError('Give a name and the file: cairn prompts add <name> --file FILE')
  const [name] = positionals
  let text: string
  try {
    text = readFileSync(resolve(values.file), 'utf8')
  } catch (error) {
    throw new UsageError(`Could not read ${values.file}: ${(error as Error).message}`)
  }
  const parsed = parsePromptFile(text, name, { rename: true })
  if (!parsed.ok) throw wordedFailure('prompts.invalid', { name, issues: `${parsed.issue}: ${parsed.detail}` })
  const prompt = values.description === undefined ? parsed.prompt : { ...parsed.prompt, description: values.description }
  await store.save(prompt, { screen: true, ...(values.replace ? { previousName: name } : {}) })
  ctx.io.out(`${t('prompts.cli.saved', { name, file: `${store.dir}/${name}.md` })}\n`)
  return 0
}

async function remove(ctx: CliContext, store: PromptStore, t: Translate, args: string[]): Promise<number> {
  const { positionals } = parseCommandArgs(args, {})
  if (positionals.length !== 1) throw new UsageError('Name one prompt: cairn prompts rm <name>')
  await store.delete(positionals[0])
  ctx.io.out(`${t('prompts.cli.removed', { name: positionals[0] })}\n`)
  return 0
}
