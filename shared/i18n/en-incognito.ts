/**
 * English words for incognito chats (issue 28, part C): the banner and marker of a conversation that is
 * not saved and not learned from, the toggle that starts one, closing it, and its shortcut and menu item.
 * The CLI prints `incognito.notice` when `cairn chat --incognito` starts. Part of `en.ts` through `en-conversations.ts`.
 */
export const enIncognito = {
  'incognito.notice': 'Incognito: this chat is not saved and Cairn will not learn from it.',
  'incognito.label': 'Incognito',
  'incognito.turnOn': 'Start this chat incognito (not saved, not learned from)',
  'incognito.turnOff': 'Turn incognito off for this chat',
  'incognito.close': 'Close incognito chat',
  'incognito.confirmClose': 'Close this incognito chat? It was never saved, so its messages will be gone.',
  'incognito.placeholder': 'Ask incognito…',
  'shortcuts.newIncognitoChat': 'New incognito chat',
  'menu.newIncognitoChat': 'New incognito chat'
} as const
