/**
 * English words left in `text` once the names it may carry are taken out (paths, commands, URLs,
 * product names): what a zh-CN user would still see untranslated. Empty means fully translated.
 */
export function englishLeft(text: string, names: string[] = []): string[] {
  let rest = text
  for (const name of [...names, 'Cairn', 'OpenAI', 'OpenRouter', 'Ollama', 'LM Studio', 'API'].sort((a, b) => b.length - a.length)) {
    rest = rest.split(name).join(' ')
  }
  return rest.match(/[A-Za-z]{2,}/g) ?? []
}

/** The text of `element` without the parts that show data as it is (matched by `skip`, e.g. `pre`). */
export function textWithout(element: HTMLElement, skip: string): string {
  const copy = element.cloneNode(true) as HTMLElement
  for (const node of copy.querySelectorAll(skip)) node.remove()
  return copy.textContent ?? ''
}
