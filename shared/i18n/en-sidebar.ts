/** English words for the long conversations list in the sidebar (paged, virtualised). Part of `en.ts`. */
export const enSidebar = {
  'sessions.loadingMore': 'Loading more conversations…'
} as const
