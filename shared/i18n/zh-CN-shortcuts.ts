import type { enShortcuts } from './en-shortcuts'

/** 简体中文: the window layout, the keyboard shortcuts dialog and the copy toast (the keys of `en-shortcuts.ts`). */
export const zhCNShortcuts: Record<keyof typeof enShortcuts, string> = {
  'layout.sidebar': '侧边栏',
  'layout.showSidebar': '显示侧边栏',
  'layout.hideSidebar': '隐藏侧边栏',
  'layout.closeSidebar': '关闭侧边栏',

  'shortcuts.title': '键盘快捷键',
  'shortcuts.lead': '单个字母键只在没有输入文字时生效。',
  'shortcuts.or': '或',
  'shortcuts.group.general': '任何地方',
  'shortcuts.group.chat': '对话',
  'shortcuts.group.approval': '等待批准的工具',
  'shortcuts.group.inbox': '待办',
  'shortcuts.group.memory': '记忆',
  'shortcuts.newChat': '新对话',
  'shortcuts.search': '查找对话',
  'shortcuts.sidebar': '显示或隐藏侧边栏',
  'shortcuts.settings': '打开设置',
  'shortcuts.help': '显示这些快捷键',
  'shortcuts.closeDialog': '关闭对话框或菜单',
  'shortcuts.quickPrompt': '在任何应用中打开快速提问',
  'shortcuts.send': '发送消息',
  'shortcuts.newline': '在消息中换行',
  'shortcuts.editLast': '编辑你的上一条消息（消息框为空时）',
  'shortcuts.copyAnswer': '复制最后一条回答',
  'shortcuts.stop': '停止回答',
  'shortcuts.allowOnce': '允许一次',
  'shortcuts.deny': '拒绝',
  'shortcuts.inboxNext': '下一条提议',
  'shortcuts.inboxPrevious': '上一条提议',
  'shortcuts.inboxApprove': '批准',
  'shortcuts.inboxEdit': '先编辑再批准',
  'shortcuts.inboxReject': '拒绝',
  'shortcuts.saveEdit': '保存编辑',
  'shortcuts.memoryAdd': '添加输入的条目',

  'shortcuts.copied': '已复制最后一条回答',
  'shortcuts.nothingToCopy': '这个对话里还没有可复制的回答。',
  'shortcuts.copyFailed': '无法复制回答：{reason}'
}
