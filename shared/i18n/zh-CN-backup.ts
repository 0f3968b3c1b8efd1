import type { enBackup } from './en-backup'

/** Words for Settings → Data: scheduled backups and a backup made now. */
export const zhCNBackup: Record<keyof typeof enBackup, string> = {
  'backup.title': '数据与备份',
  'backup.lead': '备份是 Cairn 所知一切的单个归档：对话、记忆、技能、附件和设置。API 密钥等机密信息永远不会包含在内。',
  'backup.schedule': '自动备份',
  'backup.off': '关闭',
  'backup.everyDay': '每天',
  'backup.everyDays': '每 {count} 天',
  'backup.keep': '保留的备份数',
  'backup.keepHint': '每次定时备份后，文件夹中更早的备份会被删除。',
  'backup.folder': '文件夹',
  'backup.folderHint': '留空则使用 {folder}。',
  'backup.save': '保存计划',
  'backup.now': '立即备份',
  'backup.running': '正在备份…',
  'backup.last': '上次备份：{file}（{size}），{when}。',
  'backup.none': '此文件夹中还没有备份。',
  'backup.next': '下次备份：{when}。',
  'backup.failed': '上次备份失败：{message}',
  'backup.restoreHint': '要恢复备份，请退出 Cairn 并运行 "cairn restore FILE"：当前数据会被保留在一旁，绝不会被删除。'
}
