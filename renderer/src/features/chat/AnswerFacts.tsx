import { useT } from '../../app/context'
import type { AnswerUsage } from '../../stores/chat-items'

/** Which model answered and what the turn cost, shown with the answer's actions (on hover or focus). */
export function AnswerFacts({ model, usage }: { model?: string | null; usage?: AnswerUsage }): React.JSX.Element | null {
  const t = useT()
  if (!model && !usage) return null
  const who = model ? t('chat.answerFacts', { model }) : t('chat.answerFacts.unknownModel')
  const tokens = usage
    ? t('chat.answerFacts.tokens', { input: usage.promptTokens.toLocaleString(), output: usage.completionTokens.toLocaleString() })
    : null
  const cached = usage && usage.cachedTokens > 0 ? t('chat.answerFacts.cached', { cached: usage.cachedTokens.toLocaleString() }) : null
  const full = [who, tokens, cached].filter(Boolean).join(' · ')
  return (
    <span className="answer-facts" title={full} tabIndex={0} aria-label={full}>
      {model ? <span className="answer-model">{model}</span> : null}
      {tokens ? <span className="answer-tokens">{tokens}</span> : null}
    </span>
  )
}
