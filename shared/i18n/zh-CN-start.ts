import type { enStart } from './en-start'

/** 简体中文: why the app cannot start (the keys of `en-start.ts`). */
export const zhCNStart: Record<keyof typeof enStart, string> = {
  'start.title': 'Cairn 无法启动',
  'start.damagedDatabase':
    '{path} 已损坏（{detail}）。其中的内容没有被改动。“修复”会把损坏的文件原样移到一旁，把仍能读出的内容保存到新的数据库，然后重新启动 Cairn。在终端中，"cairn doctor" 可查看问题所在，"cairn doctor --repair" 执行同样的修复。',
  'start.repair': '修复',
  'start.quit': '退出',
  'start.repairedTitle': 'Cairn 已修复数据库',
  'start.repaired': '已完成（{count} 步）。损坏的文件保留在新文件旁边。Cairn 现在重新启动。',
  'start.repairFailed': '修复未能完成：{message}。没有删除任何内容；请在终端运行 "cairn doctor" 查看详情。',
  'start.damaged.empty': '它是一个空文件，0 字节',
  'start.damaged.truncated': '文件被截断了',
  'start.damaged.notDatabase': '它不是 SQLite 数据库',
  'start.damaged.corrupt': 'SQLite 报告数据库映像已损坏'
}
