import type { enRecall } from './en-recall'

/** 召回的记忆与外部记忆服务（issue 28 第 D 部分）的中文文案。属于 `zh-CN.ts`。 */
export const zhCNRecall: Record<keyof typeof enRecall, string> = {
  'provenance.source.recall': '对话中召回的记忆（{label}）',
  'recall.shown': '召回了 {count} 条记忆',
  'recall.from': '来自 {provider}',
  'recall.provider.builtin': 'Cairn 的记忆档案',
  'recall.provider.mem0': 'Mem0',
  'recall.provider.honcho': 'Honcho',
  'recall.settings.title': '记忆服务',
  'recall.settings.lead': '常驻笔记之外的记忆保存在哪里、从哪里召回。同一时间只用一个；无痕对话不会发送任何内容。',
  'recall.settings.provider': '服务',
  'recall.settings.state.ready': '{provider} 工作正常。',
  'recall.settings.state.failing': '{problem}。对话照常进行；已完成的轮次会在后台重试发送。',
  'recall.failure.unauthorized': '{provider} 拒绝了密钥',
  'recall.failure.unreachable': '无法连接 {provider}',
  'recall.failure.failed': '{provider} 出错：{message}',
  'recall.settings.pending': '{count} 轮已完成的对话等待发送',
  'recall.settings.sent': '最近发送的内容',
  'recall.settings.sentNothing': '还没有发送任何内容。',
  'recall.settings.sent.turn': '已完成的一轮对话',
  'recall.settings.sent.query': '为一条消息召回',
  'recall.settings.builtinSendsNothing': '记忆档案保存在本机的数据目录中，不会发送到任何地方。',
  'recall.settings.key': 'API 密钥',
  'recall.settings.baseURL': '服务器地址',
  'recall.settings.mode': 'Mem0 模式',
  'recall.settings.mode.oss': '在本机运行（使用你自己的模型服务）',
  'recall.settings.mode.platform': 'Mem0 平台（需要密钥）',
  'recall.cli.recalled': '召回 {count} 条：{items}',
  // issue 28 fixes: the CLI's provider lines, and the memory switches pausing recall
  'recall.cli.forgot': '已忘记 {id}',
  'recall.cli.cannotForget': '{provider} 无法忘记 {id}',
  'recall.settings.memoryOff': '记忆和用户画像都已关闭：对话中不会召回任何内容，也不会向记忆服务发送任何内容。'
}
