import type { enStart } from './en-start'

/** 简体中文: why the app cannot start (the keys of `en-start.ts`). */
export const zhCNStart: Record<keyof typeof enStart, string> = {
  'start.title': 'Cairn 无法启动',
  'start.damagedDatabase':
    '{path} 已损坏（{detail}）。其中的内容没有被改动。请在终端运行 "cairn doctor" 查看问题所在，然后运行 "cairn doctor --repair"：它会把损坏的文件移到一旁，并保存仍能读出的内容。',
  'start.damaged.empty': '它是一个空文件，0 字节',
  'start.damaged.truncated': '文件被截断了',
  'start.damaged.notDatabase': '它不是 SQLite 数据库',
  'start.damaged.corrupt': 'SQLite 报告数据库映像已损坏'
}
