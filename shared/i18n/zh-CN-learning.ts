import type { enLearning } from './en-learning'

/** 回顾学到的内容（逐条）以及对话结束时回顾的原因。属于简体中文词典（`zh-CN.ts`）。 */
export const zhCNLearning: Record<keyof typeof enLearning, string> = {
  'learned.remembered': '记住了：{text}',
  'learned.forgotten': '忘掉了：{text}',
  'learned.skillCreated': '新技能 {name}：{description}',
  'learned.skillCreatedPlain': '新技能 {name}',
  'learned.skillChanged': '技能 {name}：{change}',
  'learned.skillChangedRemoved': '技能 {name}：删去了“{change}”',
  'learned.skillUpdated': '技能 {name} 已更新',
  'learned.skillDeleted': '技能 {name} 已删除',
  'learned.nothing': '没有值得保留的内容。',
  'learned.heading': '从这段对话中学到的',
  'learned.usage': '{model}：提示 {prompt} + 生成 {completion} 个 token',

  'reason.session_end.idle': '对话已停下（{turns} 轮尚未回顾）',
  'reason.session_end.new_conversation': '开始了新对话（{turns} 轮尚未回顾）',
  'reason.session_end.quit': 'Cairn 正在退出（{turns} 轮尚未回顾）',
  'reason.session_end.exit': '聊天已结束（{turns} 轮尚未回顾）',

  'settings.learning.model': '学习用的模型',
  'settings.learning.modelHint': '回顾在这个模型上运行；留空则使用聊天模型。通常更小、更便宜的模型就够了。',
  'settings.learning.baseURL': '学习用的接口地址',
  'settings.learning.baseURLHint': '单独的 OpenAI 兼容地址；留空则使用聊天的提供方。它的密钥单独保存。',
  'reviewFailure.exited_before_start': '这次审查开始前 Cairn 已退出。',
  'reviewFailure.closed_before_start': '这次审查开始前 Cairn 已关闭。',
  'reviewFailure.quit_before_run': '这次审查运行前 Cairn 已退出：退出时打开的对话的审查只有 {seconds} 秒。',
  'reviewFailure.never_started': '未开始：排队它的进程在它运行前就结束了。',
  'reviewFailure.stopped': '因 Cairn 正在关闭而停止。',
  'reviewFailure.worker_gone': '审查进程（pid {pid}）已消失，没有记录审查如何结束：Cairn 或该进程在审查中途被停止或终止。不会重试；之后的对话照常审查。',
  'reviewFailure.worker_gone.noPid': '审查进程已消失，没有记录审查如何结束：Cairn 或该进程在审查中途被停止或终止。不会重试；之后的对话照常审查。',
  'reviewFailure.settings_unreadable': '无法读取服务商设置：{detail}',
  'reviewFailure.worker_unstartable': '无法启动审查进程：{detail}',
  'reviewFailure.invalid_job': '审查任务无效：{issues}',
  'reviewFailure.over_budget': '审查超出了 {seconds} 秒的时间预算，已被停止。',
  'reviewFailure.did_not_start': '审查进程没有在 {seconds} 秒内启动。',
  'reviewFailure.lock_held': '此数据目录中的另一次审查在这次审查的整个 {seconds} 秒预算内都占着审查锁，所以它没有运行。不会重试；下一个值得学习的对话照常审查。',
  'reviewFailure.worker_killed': '审查进程在完成前被终止（{signal}）。{reported}',
  'reviewFailure.worker_exited': '审查进程在完成前退出，退出码 {exitCode}。{reported}'
}
