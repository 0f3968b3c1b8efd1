import type { enMemory } from './en-memory'
import { zhCNHide } from './zh-CN-hide'
import { zhCNProject } from './zh-CN-project'
import { zhCNArchive } from './zh-CN-archive'

/** 简体中文: the Memory screen (the keys of `en-memory.ts`). */
export const zhCNMemory: Record<keyof typeof enMemory, string> = {
  'memory.title': '记忆',
  'memory.lead': 'Cairn 在不同对话之间记住的内容。它有固定的容量，所以条目都很简短。你的编辑会记录在时间线中。',
  'memory.user.title': '关于你',
  'memory.user.lead': '你是谁、你的工作方式和偏好（USER.md）。',
  'memory.user.placeholder': '例如：喜欢简短的回答，先给代码',
  'memory.memory.title': '环境笔记',
  'memory.memory.lead': '关于你的机器、项目和工具的事实（MEMORY.md）。',
  'memory.memory.placeholder': '例如：预发布服务器用 make deploy-staging 部署',
  'memory.usage': '已用空间',
  'memory.usageText': '{current} / {limit} 个字符（{percent}%）',
  'memory.nearlyFull': '快满了。Cairn 会合并或删除条目来腾出空间，你也可以在这里整理。',
  'memory.disabled': '此存储已关闭，Cairn 在对话中不会读取或写入它。',
  'memory.empty': '这里还没有内容。',
  'memory.add': '添加',
  'memory.addLabel': '为“{store}”添加新条目',
  'memory.charsLeft': '还剩 {count} 个字符',
  'memory.edit': '编辑',
  'memory.editLabel': '条目内容',
  'memory.delete': '删除',
  'memory.deleteTitle': '删除这条记忆？',
  'memory.deleteBody': 'Cairn 将不再知道这件事。你可以在时间线中恢复它。',
  'memory.charsOver': '超出上限 {count} 个字符',
  'memory.editOver': '超出 {count} 个字符：缩短后才能保存',

  'memory.info.confirmed': '最近确认于{when}',
  'memory.addDuplicate': '这条记忆已经存在，一字不差。没有重复添加；它已记为再次确认。',
  'memory.similar.near_duplicate': '未添加：已有一条记忆说的几乎一样。',
  'memory.similar.contradiction': '未添加：它与已保存的一条记忆相矛盾。',
  'memory.similar.replace': '用你的这条替换它',
  'memory.similar.addAnyway': '仍然添加',
  'memory.tool.alreadySaved': '已保存过，未重复添加',
  'memory.tool.alreadyIn': '{store}中已有',
  ...zhCNHide,
  // Issue 28, part B (zh-CN-project.ts).
  ...zhCNProject,
  // 记忆归档（issue 28，A 部分）。
  ...zhCNArchive
}
