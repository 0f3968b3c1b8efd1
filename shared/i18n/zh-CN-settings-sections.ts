import type { enSettingsSections } from './en-settings-sections'

/** 设置的分区（issue 29，part B）：左侧导航、设置搜索、同步设置的进度与结果，以及浏览器模式下"在这台电脑上记住"密钥。 */
export const zhCNSettingsSections: Record<keyof typeof enSettingsSections, string> = {
  'settings.sections.label': '设置分区',
  'settings.sections.provider': '服务商',
  'settings.sections.learning': '学习',
  'settings.sections.search': '搜索',
  'settings.sections.tools': '工具（MCP）',
  'settings.sections.data': '数据',
  'settings.sections.appearance': '外观',
  'settings.find.label': '搜索设置',
  'settings.find.placeholder': '搜索设置…',
  'settings.find.results': '匹配的设置',
  'settings.find.none': '没有设置匹配“{query}”。',
  'settings.find.one': '有 1 个匹配的设置。按 Enter 打开它。',
  'settings.find.count': '有 {count} 个匹配的设置。按 Enter 打开第一个。',
  'sync.connecting': '正在连接 {remote} 并进行第一次同步…',
  'sync.setupDone': '同步已设置：这台设备现在与 {remote} 同步。',
  'sync.tokenHintBrowser': '一个可以读写该仓库的令牌。只有第一次同步成功后才会保留它。',
  'sync.fix.unauthorized': '请粘贴一个可以读写该仓库的令牌，然后重新设置。',
  'sync.fix.network': '请检查地址（以及服务器是否在线），然后重新设置。',
  'sync.fix.remote_rejected': '请确认地址是仓库的克隆地址（以 .git 结尾），并且令牌有推送权限。',
  'sync.fix.unsupported_remote': '请使用仓库的 https:// 克隆地址。',
  'sync.fix.busy': '请等另一次同步结束，然后重新设置。',
  'sync.fix.failed': '请检查地址和令牌，然后重新设置。',
  'sync.fix.not_set_up': '请填写仓库地址，然后重新设置。',
  'sync.fix.editToken': '更换令牌',
  'sync.fix.editRemote': '修改地址',
  'secrets.keptUntilStop': '浏览器模式下在此输入的密钥只保留到“cairn serve”停止，除非你选择在这台电脑上记住它。',
  'secrets.remember': '在这台电脑上记住',
  'secrets.rememberHint': '保存在 {file} 中，只有你的用户账户可以读取；不会同步、备份或共享。环境变量仍然优先。',
  'secrets.remembered': '已在这台电脑上记住'
}
