import type { enHide } from './en-hide'

/** Words for "Don't bring this up" on the Memory screen. */
export const zhCNHide: Record<keyof typeof enHide, string> = {
  'hide.label': '不要再提起',
  'hide.hint': '仍保留在这里和它的历史中，但不会进入新对话、其他智能体通过 MCP 读取的内容和回忆。随时可以恢复。',
  'hide.show': '重新提起',
  'hide.showHint': '从下一次对话起，Cairn 会重新读取这条记忆。',
  'hide.badge': '已隐藏',
  'hide.since': '不会出现在新对话中',
  'hide.sinceTitle': '隐藏于 {when}',
  'hide.usageCounts': '{count} 条已隐藏：它们仍在文件中，所以仍计入用量。',
  'hide.history': '隐藏与恢复',
  'hide.historyHidden': '你要求不再提起',
  'hide.historyShown': '你重新提起了它',
  'hide.historyFailed': '无法读取隐藏记录：{error}'
}
