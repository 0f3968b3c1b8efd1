import type { enFeedback } from './en-feedback'

/** 学习之后的反馈：对话里的说明在提议被处理或更改被撤销后如何变化、从说明进入待办，以及整理的结果。 */
export const zhCNFeedback: Record<keyof typeof enFeedback, string> = {
  'chat.learnedFate.applied': '{count} 项更改已生效。',
  'chat.learnedFate.rejected': '你拒绝了{count|这项|这些}更改。',
  'chat.learnedFate.undone': '{count} 项更改已撤销。',
  'chat.learnedFate.setAside': '已搁置，等待重新回顾。',
  'chat.learnedFate.part.applied': '{count} 项已生效',
  'chat.learnedFate.part.rejected': '{count} 项已拒绝',
  'chat.learnedFate.part.undone': '{count} 项已撤销',
  'chat.learnedFate.part.setAside': '{count} 项已搁置',
  'chat.learnedFate.part.pending': '{count} 项等待审阅',
  'chat.learnedFate.separator': '，',
  'chat.learnedFate.combined': '{parts}。',
  'chat.learnedFate.openInbox': '在待办中审阅其余 {count} 项',

  'inbox.arrival.gone': '你要找的更改已不在这里等待：{parts}。',
  'inbox.arrival.goneUnknown': '你要找的更改已不在这里等待。',

  'curation.running': '正在整理…',
  'curation.waiting': '等待整理…',
  'curation.busyHint': '正在进行一次整理，结束时会在这里告诉你结果。',
  'curation.proposed': '整理完成：{count} 项提议等你审阅。',
  'curation.nothing': '没有需要整理的内容：资料库中没有值得合并的重叠。',
  'curation.failed': '未能整理资料库：{reason}',
  'curation.outcomeLabel': '上一次整理的结果'
}
