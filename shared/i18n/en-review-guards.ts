/** English words for what the review's guards hold back (a skill cut down by a rewrite). Part of `en-inbox.ts`. */
export const enReviewGuards = {
  'inbox.cause.skill_shrink.badge': 'Cuts a skill',
  'inbox.cause.skill_shrink': 'This rewrite would remove a large part of the skill, so it waits for you instead of being applied.',
  'inbox.rationale.skill_shrink': 'It would cut the skill from {before} to {after} lines.',
  'inbox.rationale.skill_shrink.sections': 'It would cut the skill from {before} to {after} lines and drop these sections: {sections}.',
  'inbox.rationale.skill_shrink.words': '{figures} The reviewer said: {words}'
} as const
