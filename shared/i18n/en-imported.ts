/** Issue 29, part D: imported conversations going on in Cairn, and import counts said once. */
export const enImported = {
  // Under an imported answer: the app it came from and the model that wrote it.
  'imported.answerBy': '{app} · {model}',
  'imported.answerByTitle': 'Imported from {app}, written by {model}. Going on here answers with your model.',
  'imported.answerFrom': '{app}',
  'imported.answerFromTitle': 'Imported from {app}. Going on here answers with your model.',
  // An import that found nothing new: no batch is kept.
  'import.nothingNewTitle': 'Nothing new: everything there was imported before, so no import was recorded and there is nothing to undo.'
} as const
