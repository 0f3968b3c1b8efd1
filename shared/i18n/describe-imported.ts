import type { Translate } from './index'

/** The import sources with a name of their own (`import.sourceName.*`); kept here so the words need no contract. */
const NAMED = ['hermes', 'openclaw', 'claude-code', 'chatgpt', 'claude'] as const

/** The name of the app an imported message came from ("ChatGPT"), or its id as it is when unknown. */
export function importedAppName(app: string, t: Translate): string {
  return (NAMED as readonly string[]).includes(app) ? t(`import.sourceName.${app as (typeof NAMED)[number]}`) : app
}

/** An imported answer's label ("ChatGPT · o3") and the sentence behind it. */
export function importedAnswerWords(imported: { app: string; model: string | null }, t: Translate): { label: string; title: string } {
  const app = importedAppName(imported.app, t)
  const model = imported.model
  return model
    ? { label: t('imported.answerBy', { app, model }), title: t('imported.answerByTitle', { app, model }) }
    : { label: t('imported.answerFrom', { app }), title: t('imported.answerFromTitle', { app }) }
}

/** Who wrote an imported answer, in a transcript or an export: "ChatGPT (o3)", or the app alone when no model is known. */
export function importedSpeaker(imported: { app: string; model: string | null }, t: Translate): string {
  const app = importedAppName(imported.app, t)
  return imported.model ? `${app} (${imported.model})` : app
}
