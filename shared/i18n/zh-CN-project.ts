import type { enProject } from './en-project'

/** 议题 28，B 部分：工作区的项目记忆与仓库自带的说明。 */
export const zhCNProject: Record<keyof typeof enProject, string> = {
  'memory.project.title': '此项目',
  'memory.project.lead': '关于工作区 {name} 的事实，只在该工作区的对话中加载（保存在数据目录的 PROJECT.md，从不写入仓库）。',
  'memory.project.placeholder': '例如：用 npm test 运行测试；API 在 server/ 目录下',
  'review.project': '项目记忆已更新',
  'tools.store.project': '项目记忆',
  'tray.store.project': '项目',
  'project.instructions.label': '项目说明',
  'project.instructions.loaded': '开始时已读取：{files}',
  'project.instructions.open': '打开 {file}',
  'project.instructions.blocked': '未使用 {file}：其中有试图指挥助手的文字（{why}）。',
  'project.instructions.cut': '{file} 只保留了前 {chars} 个字符。',
  'project.instructions.cliLine': '项目说明：{files}',
}
