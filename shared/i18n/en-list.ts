/** The conversation's list: long texts shown folded. Part of the English dictionary (`en.ts`). */
export const enList = {
  'list.showAllChars': 'Show all {count} characters'
} as const
