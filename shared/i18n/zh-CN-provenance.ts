import type { enProvenance } from './en-provenance'

/** 学到的内容从哪里来、什么样的改动有风险、为什么这些改动要等你确认的中文文案。属于 `zh-CN.ts`。 */
export const zhCNProvenance: Record<keyof typeof enProvenance, string> = {
  'inbox.cause.untrusted_source.badge': '读到的，不是你说的',
  'inbox.cause.untrusted_source': '这条内容来自 Cairn 读到的东西，而不是你说的话，所以无论学习模式如何，都要等你确认。',
  'inbox.cause.dangerous_content.badge': '有风险',
  'inbox.cause.dangerous_content': '这个改动加入了助手照做可能造成危害的内容，所以总是要等你确认。',
  'inbox.cause.learning_off.badge': '学习已关闭',
  'inbox.cause.learning_off': '学习已关闭，所以 Cairn 自己想记下的内容要等你确认。',

  'inbox.group.chat': '在对话“{title}”中暂缓保存',
  'inbox.group.chatUntitled': '在一次对话中暂缓保存',
  'tools.heldBack': '已暂缓：在待办中等你确认',
  'provenance.user': '来自你说的话',
  'provenance.model': 'Cairn 自己的表述',
  'provenance.read': '来自{source}',
  'provenance.readMore': '来自{source}等 {count} 处',
  'provenance.evidence': '其中包含“{evidence}”，这不是你写的。',
  'provenance.source.file': ' {tool} 读取的 {label}',
  'provenance.source.fileNoTool': '文件 {label}',
  'provenance.source.web': ' {tool} 读取的 {label} 上的网页',
  'provenance.source.mcp': 'MCP 工具 {label}',
  'provenance.source.search': '对过往对话的搜索',
  'provenance.source.command': '命令“{label}”的输出',
  'provenance.source.attachment': '附件 {label}',
  'provenance.source.skill': '技能 {label}',
  'provenance.source.import': '导入 {label}',
  'provenance.source.sync': '与 {label} 的同步',
  'provenance.source.shared_library': '团队技能库 {label}',
  'provenance.source.agent': '另一个智能体 {label}（MCP）',
  'provenance.source.tool': '工具 {label}',

  'danger.remote_code': '运行从网上下载的代码：{detail}',
  'danger.network_destination': '向新的地址发送或从中获取内容：{detail}',
  'danger.credentials_path': '触及凭据文件：{detail}',
  'danger.approval_bypass': '让助手跳过你的确认：{detail}',

  'approval.learn': 'Cairn 想要修改属于你的内容',
  'approval.learn.pinned_entry': '修改{store}中你固定的条目',
  'approval.learn.user_skill': '修改你的技能“{name}”',
  'approval.learn.imported_skill': '修改导入的技能“{name}”',
  'approval.learn.pinned_skill': '修改已固定的技能“{name}”',
  'approval.learn.pinned_entry.remove': '从{store}中删除你固定的条目',
  'approval.learn.user_skill.remove': '归档你的技能“{name}”',
  'approval.learn.imported_skill.remove': '归档导入的技能“{name}”',
  'approval.learn.pinned_skill.remove': '归档已固定的技能“{name}”'
}
