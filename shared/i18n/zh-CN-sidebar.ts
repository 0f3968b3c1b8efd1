import type { enSidebar } from './en-sidebar'

/** 侧边栏中长对话列表（分页、虚拟化）的文字。属于 `zh-CN.ts`。 */
export const zhCNSidebar: Record<keyof typeof enSidebar, string> = {
  'sessions.loadingMore': '正在加载更多对话…'
}
