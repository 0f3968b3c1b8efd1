import type { enCuration } from './en-curation'

/** 整理（对整个资料库的一次回顾，结果总是提议）的中文文案。 */
export const zhCNCuration: Record<keyof typeof enCuration, string> = {
  'reason.curation': '整理整个资料库',
  'curation.off': '学习已关闭，因此没有整理资料库。请先在设置中选择“自动”或“询问”。',
  'curation.run': '立即整理资料库',
  'curation.hint': '查找重叠的技能以及重复或矛盾的记忆，并在待办中提出合并建议。在你批准之前不会有任何改动。',
  'curation.started': '整理已开始，它的提议会出现在待办中。',
  'curation.openInbox': '打开待办'
}
