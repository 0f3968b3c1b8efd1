import type { enWorkspace } from './en-workspace'

/** 简体中文: a conversation's workspace folder (the keys of `en-workspace.ts`). */
export const zhCNWorkspace: Record<keyof typeof enWorkspace, string> = {
  'workspace.label': '文件夹：{name}',
  'workspace.change': '更改 Cairn 的工作文件夹（当前为 {path}）',
  'workspace.pickTitle': '选择 Cairn 的工作文件夹',
  'workspace.dialogTitle': '此对话的文件夹',
  'workspace.dialogBody': 'Cairn 在此文件夹中读写文件、运行命令。尚不存在的文件夹会被创建。',
  'workspace.dialogBodyNext': '更改从下一条消息起生效。',
  'workspace.pathLabel': '文件夹的完整路径',
  'workspace.use': '使用此文件夹',
  'workspace.changed': 'Cairn 现在工作于 {path}。',

  'workspace.problem.not_absolute': '请输入文件夹的完整路径，从磁盘根目录开始（/ 或 C:\\ 这样的盘符）。',
  'workspace.problem.missing': '文件夹 {path} 不存在。',
  'workspace.problem.not_folder': '{path} 是文件，不是文件夹。',
  'workspace.problem.forbidden': '{path} 位于 Cairn 自身所在的 {root} 中。请选择你自己的文件夹。',
  'workspace.problem.cannot_create': 'Cairn 无法创建文件夹 {path}。'
}
