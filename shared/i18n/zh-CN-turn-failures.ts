import type { enTurnFailures } from './en-turn-failures'

/** 对话失败的中文措辞（issue 29，A 部分）：见 en-turn-failures.ts。 */
export const zhCNTurnFailures: Record<keyof typeof enTurnFailures, string> = {
  'turnFailure.model_not_found': '{baseURL} 上的服务商没有模型“{model}”。请在设置中选择它提供的模型。',
  'turnFailure.auth': '{baseURL} 上的服务商拒绝了 API 密钥。请在设置中填入正确的密钥。',
  'turnFailure.unreachable': '无法连接 {baseURL} 上的服务商。请启动它，或在设置中更正地址。',
  'turnFailure.images_unsupported': '模型“{model}”不接受图片。请在设置中选择能读图片的模型，或不带图片发送这条消息。',
  'turnFailure.cause.model_not_found': '{baseURL} 上的服务商没有模型“{model}”。',
  'turnFailure.cause.auth': '{baseURL} 上的服务商拒绝了 API 密钥。',
  'turnFailure.cause.unreachable': '无法连接 {baseURL} 上的服务商。',
  'turnFailure.cause.images_unsupported': '模型“{model}”不接受图片。',
  'turnFailure.mcpServer': 'MCP 服务器“{server}”不可用。请在设置中查看它的状态和日志。',
  'turnFailure.unanswered': '未回答',
  'turnFailure.unansweredHint': '这条消息没有得到回答。打开它可查看原因并重试。',
  'turnFailure.cli.fix.auth': '解决方法：export CAIRN_API_KEY=<你的密钥>（或 OPENAI_API_KEY），然后再次发送。',
  'turnFailure.cli.fix.model_not_found': '解决方法：export CAIRN_MODEL=<{baseURL} 提供的模型>（或在 {configFile} 中设置 provider.model），然后再次发送。',
  'turnFailure.cli.fix.unreachable': '解决方法：启动 {baseURL} 上的服务商，或 export CAIRN_BASE_URL=<正确的地址>（{configFile} 中的 provider.baseURL）。',
  'turnFailure.cli.fix.images_unsupported': '解决方法：export CAIRN_MODEL=<能读图片的模型>，或不带 --attach 发送这条消息。',
  'turnFailure.cli.kept': '没有得到回答。对话已保留（会话 {id}）：解决问题后再次运行同一命令，它会回答这个对话，而不是新开一个。',
  'turnFailure.cli.keptAttached': '没有得到回答。对话已保留（会话 {id}）：解决问题后用 cairn chat "<你的消息>" --session {id} 继续这个对话（带 --attach 再次运行同一命令会新开一个对话）。'
}
