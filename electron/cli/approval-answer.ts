/** What a typed answer to "Allow?" chooses; null when it is none of them (asked again, never taken as no). */
export type ApprovalChoice = 'yes' | 'no' | 'session' | 'always'

/** The words each choice is typed as, in English and Chinese (the app speaks both). */
const WORDS: Record<ApprovalChoice, readonly string[]> = {
  yes: ['y', 'yes', 'yep', 'ok', 'allow', '是', '是的', '好', '好的', '允许', '同意', '可以'],
  no: ['n', 'no', 'nope', 'deny', '否', '不', '不要', '不行', '拒绝', '不允许'],
  session: ['s', 'session', '会话', '本次会话', '本次对话', '此对话'],
  always: ['a', 'always', '总是', '始终', '一直', '总是允许']
}

const CHOICES = Object.keys(WORDS) as ApprovalChoice[]

export function approvalChoice(typed: string): ApprovalChoice | null {
  // Case, spaces and a closing mark ("Yes.", "好的！") do not change the answer.
  const answer = typed.trim().toLowerCase().replace(/[.!。！]+$/u, '')
  return CHOICES.find((choice) => WORDS[choice].includes(answer)) ?? null
}

/** Said when an answer was none of the choices offered: what they are, and that what was typed was not sent anywhere. */
export function unclearAnswerLine(typed: string, offered: readonly string[]): string {
  const shown = typed.trim() ? `"${typed.trim().length > 60 ? `${typed.trim().slice(0, 59)}…` : typed.trim()}" is not an answer here (it was not sent). ` : ''
  return `${shown}Answer ${offered.join(', ')}.`
}
