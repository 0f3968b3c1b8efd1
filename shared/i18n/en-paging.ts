/** Long conversations shown a page at a time. Part of the English dictionary (`en.ts`). */
export const enPaging = {
  'quick.older': 'Earlier messages of this conversation are in the main window.'
} as const
