import type { enAttachments } from './en-attachments'

/** 附件相关的中文：输入框的附件标签、文件选择与拖放，以及被拒绝的文件。属于 `zh-CN.ts`。 */
export const zhCNAttachments: Record<keyof typeof enAttachments, string> = {
  'attachments.attach': '添加附件',
  'attachments.attachHint': '添加图片、PDF 或文本文件（也可以粘贴或拖放）',
  'attachments.remove': '移除 {name}',
  'attachments.dropHere': '松开即可添加附件',
  'attachments.listLabel': '已添加的附件',
  'attachments.kind.image': '图片',
  'attachments.kind.pdf': 'PDF',
  'attachments.kind.text': '文本',
  'attachments.cut': '只发送了前 {chars} 个字符。',
  'attachments.problem.unsupported': '无法添加“{name}”：Cairn 能读取图片（PNG、JPEG、GIF、WebP）、PDF 以及文本或代码文件。',
  'attachments.problem.too_large': '“{name}”大小为 {size}，此类文件的上限是 {limit}。',
  'attachments.problem.too_large_total': '附件总共 {size}，一条消息最多 {limit}。',
  'attachments.problem.too_many': '一条消息最多添加 {limit} 个文件。',
  'attachments.problem.empty': '“{name}”是空文件。',
  'attachments.problem.not_text': '“{name}”不是可读的文本（UTF-8）。请以 PDF 或图片形式添加。',
  'attachments.problem.unreadable_pdf': '无法将“{name}”读取为 PDF。',
  'attachments.problem.unreadable_file': '无法从磁盘读取“{name}”。',
  'connection.images_unsupported': '{baseURL} 上的模型不接受图片（HTTP {status}）。',
  'turnError.images_unsupported': '这个模型不接受图片。请换一个能读图片的模型，或去掉图片再发送。'
}
