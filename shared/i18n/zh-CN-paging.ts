import type { enPaging } from './en-paging'

/** 长对话分页显示。 */
export const zhCNPaging: Record<keyof typeof enPaging, string> = {
  'quick.older': '这个对话更早的消息在主窗口中。'
}
