import type { enVersions } from './en-versions'

/** 编辑已发送的消息、回答的各个版本，以及每个回答的用量。 */
export const zhCNVersions: Record<keyof typeof enVersions, string> = {
  'chat.edit': '编辑消息',
  'chat.edit.label': '编辑你的消息',
  'chat.edit.send': '发送',
  'chat.edit.cancel': '取消',
  'chat.edit.hint': '对话将从这里继续；之后的内容会保留为另一个版本。',
  'chat.versions': '第 {position} 个版本，共 {total} 个',
  'chat.versions.previous': '上一个版本',
  'chat.versions.next': '下一个版本',
  'chat.answerFacts': '由 {model} 回答',
  'chat.answerFacts.unknownModel': '回答',
  'chat.answerFacts.tokens': '输入 {input} · 输出 {output}',
  'chat.answerFacts.cached': '其中 {cached} 个输入 token 来自缓存'
}
