import type { enArchive } from './en-archive'

/** 简体中文: the memory archive (the keys of `en-archive.ts`). */
export const zhCNArchive: Record<keyof typeof enArchive, string> = {
  'kind.archive.add': '已归档',
  'kind.archive.remove': '已从归档移除',
  'toast.agent.archiveAdd': '已存入记忆归档',
  'toast.agent.archiveRemove': '已从记忆归档移除',
  'archive.tray.store': '归档',

  'archive.search.label': '搜索记忆和归档',
  'archive.search.placeholder': '搜索 Cairn 记住的一切…',
  'archive.search.none': '没有与“{query}”匹配的内容。',
  'archive.search.results': '{count} 条匹配',
  'archive.where.core': '在记忆中',
  'archive.where.archive': '在归档中',

  'archive.title': '归档',
  'archive.lead': '放不进记忆或被移出记忆的条目。它们不会出现在每次对话中；需要时 Cairn 会搜索它们。',
  'archive.count': '{count} 条',
  'archive.empty': '还没有归档的条目。记忆已满或有条目被移出时，它会存到这里，而不会丢失。',
  'archive.source.overflow': '记忆已满',
  'archive.source.retired': '已移出记忆',
  'archive.source.superseded': '先前的措辞',
  'archive.source.added': '直接存入归档',
  'archive.source.imported': '导入',
  'archive.source.synced': '来自其他设备',
  'archive.store.memory': '环境笔记',
  'archive.store.user': '关于你',
  'archive.store.project': '此项目',
  'archive.addedAt': '添加于 {when}',
  'archive.recalledAt': '上次想起于 {when}',
  'archive.neverRecalled': '从未想起',
  'archive.hide': '不要再提起',
  'archive.hidden': '已隐藏：Cairn 不会再提起这条。',
  'archive.unhide': '撤销',
  'archive.remove': '移除',
  'archive.removeTitle': '从归档中移除这条？',
  'archive.removeBody': 'Cairn 将再也找不到它。你可以在时间线中恢复。',
  'archive.moveBack': '移回记忆',
  'archive.moveBackFull': '记忆已满：先在记忆中腾出空间，再移回这条。',
  'archive.more': '显示更多',
  'archive.entryLabel': '归档条目：{text}'
}
