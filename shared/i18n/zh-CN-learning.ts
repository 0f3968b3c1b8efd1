import type { enLearning } from './en-learning'

/** 回顾学到的内容（逐条）以及对话结束时回顾的原因。属于简体中文词典（`zh-CN.ts`）。 */
export const zhCNLearning: Record<keyof typeof enLearning, string> = {
  'learned.remembered': '记住了：{text}',
  'learned.forgotten': '忘掉了：{text}',
  'learned.skillCreated': '新技能 {name}：{description}',
  'learned.skillCreatedPlain': '新技能 {name}',
  'learned.skillChanged': '技能 {name}：{change}',
  'learned.skillChangedRemoved': '技能 {name}：删去了“{change}”',
  'learned.skillUpdated': '技能 {name} 已更新',
  'learned.skillDeleted': '技能 {name} 已删除',
  'learned.nothing': '没有值得保留的内容。',
  'learned.heading': '从这段对话中学到的',
  'learned.usage': '{model}：提示 {prompt} + 生成 {completion} 个 token',

  'reason.session_end.idle': '对话已停下（{turns} 轮尚未回顾）',
  'reason.session_end.new_conversation': '开始了新对话（{turns} 轮尚未回顾）',
  'reason.session_end.quit': 'Cairn 正在退出（{turns} 轮尚未回顾）',
  'reason.session_end.exit': '聊天已结束（{turns} 轮尚未回顾）',

  'settings.learning.model': '学习用的模型',
  'settings.learning.modelHint': '回顾在这个模型上运行；留空则使用聊天模型。通常更小、更便宜的模型就够了。',
  'settings.learning.baseURL': '学习用的接口地址',
  'settings.learning.baseURLHint': '单独的 OpenAI 兼容地址；留空则使用聊天的提供方。它的密钥单独保存。'
}
