import type { enImported } from './en-imported'

/** 问题 29 D 部分：在 Cairn 中继续导入的对话，以及导入计数。 */
export const zhCNImported: Record<keyof typeof enImported, string> = {
  'imported.answerBy': '{app} · {model}',
  'imported.answerByTitle': '从 {app} 导入，由 {model} 撰写。在这里继续时使用你的模型回答。',
  'imported.answerFrom': '{app}',
  'imported.answerFromTitle': '从 {app} 导入。在这里继续时使用你的模型回答。',
  'import.nothingNewTitle': '没有新内容：这里的一切之前都已导入，因此没有记录新的导入，也没有可撤销的内容。'
}
