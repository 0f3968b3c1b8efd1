import { translator, type Language } from '../../shared/i18n'
import { fillPrompt, PROMPT_NAME } from '../../shared/prompts'
import { visibleControls } from '../../shared/visible-text'
import { PromptError, PromptStore } from '../core/prompts'
import { oneLine } from './io'
import { keyedFailure } from './worded-failure'

/** What `/p` needs from the REPL: where to write, and the next line typed (null at the end of input). */
export interface PromptAsker {
  err(text: string): void
  answer(question: string): Promise<string | null>
}

/** Whether `/<word>` names a saved prompt (the REPL's own commands come first). */
export function isSavedPrompt(home: string, command: string): boolean {
  const name = command.slice(1)
  return PROMPT_NAME.test(name) && new PromptStore(home).list().prompts.some((prompt) => prompt.name === name)
}

/**
 * `/p <name>` (or `/<name>`): asks for each of the saved prompt's variables (Enter keeps the default)
 * and answers the filled text, to be sent as the next message; `/p` alone lists the prompts. Null
 * when there is nothing to send (listed, or no such prompt: said on stderr), in `language` as
 * `cairn prompts` says it. A prompt's words (a synced or hand-edited file) are shown with their
 * control characters written out, so none can drive the terminal.
 */
export async function savedPromptText(home: string, name: string | undefined, asker: PromptAsker, language: Language): Promise<string | null> {
  const store = new PromptStore(home)
  if (!name) {
    const { prompts } = store.list()
    if (prompts.length === 0) asker.err(`${translator(language)('prompts.cli.none')}\n`)
    for (const prompt of prompts) asker.err(`  /${prompt.name}  ${shown(oneLine(prompt.description || prompt.body, 60))}\n`)
    return null
  }
  let prompt
  try {
    prompt = store.read(name)
  } catch (error) {
    if (!(error instanceof PromptError)) throw error
    asker.err(`cairn: ${keyedFailure(error, '/p').wordedIn(language)}\n`)
    return null
  }
  const values: Record<string, string> = {}
  for (const variable of prompt.variables) {
    const label = variable.description ? `${variable.name} (${variable.description})` : variable.name
    const given = await asker.answer(shown(`${label}${variable.default ? ` [${variable.default}]` : ''}: `))
    values[variable.name] = given?.trim() ? given : (variable.default ?? '')
  }
  const text = fillPrompt(prompt.body, values)
  asker.err(`› ${visibleControls(text, { newlines: true }).replace(/\n/g, '\n  ')}\n`)
  return text
}

function shown(text: string): string {
  return visibleControls(text, { newlines: false })
}
