import type { enList } from './en-list'

/** 对话列表：折叠显示的长文本。 */
export const zhCNList: Record<keyof typeof enList, string> = {
  'list.showAllChars': '显示全部 {count} 个字符'
}
