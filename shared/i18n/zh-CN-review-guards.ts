import type { enReviewGuards } from './en-review-guards'

/** 回顾的保护规则暂缓的改动（重写把技能删掉一大块）的中文文案。属于 `zh-CN-inbox.ts`。 */
export const zhCNReviewGuards: Record<keyof typeof enReviewGuards, string> = {
  'inbox.cause.skill_shrink.badge': '删减技能',
  'inbox.cause.skill_shrink': '这次重写会删掉技能的一大部分，所以没有直接应用，而是等你确认。',
  'inbox.rationale.skill_shrink': '它会把技能从 {before} 行删减到 {after} 行。',
  'inbox.rationale.skill_shrink.sections': '它会把技能从 {before} 行删减到 {after} 行，并删掉这些小节：{sections}。',
  'inbox.rationale.skill_shrink.words': '{figures} 回顾的说明：{words}'
}
