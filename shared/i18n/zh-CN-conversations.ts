import type { enConversations } from './en-conversations'
import { zhCNIncognito } from './zh-CN-incognito'

/** 侧边栏中管理对话的文字：置顶、归档、导出、删除。属于 `zh-CN.ts`。 */
export const zhCNConversations: Record<keyof typeof enConversations, string> = {
  'sessions.pinned': '已置顶',
  'sessions.archived': '已归档',
  'sessions.showArchived': '显示已归档',
  'sessions.hideArchived': '隐藏已归档',
  'sessions.more': '更多操作',
  'sessions.menu': '“{title}”的操作',
  'sessions.pin': '置顶',
  'sessions.unpin': '取消置顶',
  'sessions.archive': '归档',
  'sessions.unarchive': '取消归档',
  'sessions.exportMarkdown': '导出为 Markdown…',
  'sessions.exportJson': '导出为 JSON…',
  'sessions.delete': '删除…',
  'sessions.deleteTitle': '删除“{title}”？',
  'sessions.deleteGone': '对话、其中的消息及其搜索索引都会被移除，且无法撤销。',
  'sessions.deleteKept': 'Cairn 从中学到的内容会保留：记忆条目和技能不受影响，时间线也保留它做过的每一处更改，你仍可撤销这些更改。',
  'sessions.deleteConfirm': '删除对话',
  'sessions.exported': '已保存 {file}',
  ...zhCNIncognito
}
