import type { enErrors } from './en-errors'
import { zhCNErrorKeys } from './zh-CN-error-keys'

/** 简体中文: what is missing or went wrong (the keys of `en-errors.ts`). */
export const zhCNErrors: Record<keyof typeof enErrors, string> = {
  'setup.problem.no_url': '尚未设置服务商地址。请在设置中填写接口地址，或选择一个服务商。',
  'setup.problem.no_model': '尚未选择模型。请在设置中选择一个。',
  'setup.problem.no_key': '没有 {baseURL} 的 API 密钥。请在设置中填写。',
  'setup.fixElsewhere.no_url': '也可以在 config.json 中设置 provider.baseURL，或设置 CAIRN_BASE_URL。',
  'setup.fixElsewhere.no_model': '也可以在 config.json 中设置 provider.model，或设置 CAIRN_MODEL。',
  'setup.fixElsewhere.no_key': '命令行也可以设置 CAIRN_API_KEY。',

  'turnError.not_configured': '尚未设置模型服务商。请打开设置，选择服务商和模型。',
  'turnError.auth': '服务商拒绝了 API 密钥。请在设置中检查密钥。',
  'turnError.model_not_found': '服务商没有提供这个模型。请选择它列出的模型。',
  'turnError.unreachable': '无法连接到服务商。服务是否在运行，地址是否正确？',
  'turnError.timeout': '服务商没有及时响应。',
  'turnError.rate_limited': '服务商正在限制请求频率，请稍后再试。',
  'turnError.server': '服务商出现了服务器错误。',
  'turnError.bad_request': '服务商拒绝了这次请求。',
  'turnError.stream_cut': '回答到一半时，与服务商的连接断开了。',
  'turnError.bad_response': '服务商的回复无法解析。该地址是否兼容 OpenAI？',
  'turnError.cancelled': '已停止。',
  'turnError.session_deleted': '此对话已被删除。请新建一个对话继续。',
  'turnError.compression_failed': '无法压缩较早的对话来腾出空间。',
  'turnError.version_condensed': '这部分对话已被压缩以节省空间，无法再编辑、重新回答或切换到其他版本。',
  'turnError.internal': '出了点问题。',

  'timeline.revertError.not_found': '时间线中已没有这项更改。',
  'timeline.revertError.already_reverted': '这项更改已经撤销过了。',
  'timeline.revertError.conflict': '这项更改之后内容又被修改过，因此 Cairn 没有改动它。',
  'timeline.revertError.other': 'Cairn 无法撤销这项更改。',

  ...zhCNErrorKeys
}
