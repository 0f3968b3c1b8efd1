/**
 * English words for the window layout and the keyboard: the sidebar button, the shortcuts dialog
 * (one line per shortcut, grouped by where it works) and the copy-last-answer toast. Part of `en.ts`.
 */
export const enShortcuts = {
  'layout.sidebar': 'Sidebar',
  'layout.showSidebar': 'Show sidebar',
  'layout.hideSidebar': 'Hide sidebar',
  'layout.closeSidebar': 'Close the sidebar',

  'shortcuts.title': 'Keyboard shortcuts',
  'shortcuts.lead': 'Letter keys work when you are not typing in a field.',
  'shortcuts.or': 'or',
  'shortcuts.group.general': 'Everywhere',
  'shortcuts.group.chat': 'Chat',
  'shortcuts.group.approval': 'A tool waiting for approval',
  'shortcuts.group.inbox': 'Inbox',
  'shortcuts.group.memory': 'Memory',
  'shortcuts.newChat': 'New chat',
  'shortcuts.search': 'Find a conversation',
  'shortcuts.sidebar': 'Show or hide the sidebar',
  'shortcuts.settings': 'Open Settings',
  'shortcuts.help': 'Show these shortcuts',
  'shortcuts.closeDialog': 'Close a dialog or menu',
  'shortcuts.quickPrompt': 'Open the quick prompt, from any app',
  'shortcuts.send': 'Send the message',
  'shortcuts.newline': 'New line in the message',
  'shortcuts.editLast': 'Edit your last message (in an empty message box)',
  'shortcuts.copyAnswer': 'Copy the last answer',
  'shortcuts.stop': 'Stop the answer',
  'shortcuts.allowOnce': 'Allow once',
  'shortcuts.deny': 'Deny',
  'shortcuts.inboxNext': 'Next proposal',
  'shortcuts.inboxPrevious': 'Previous proposal',
  'shortcuts.inboxApprove': 'Approve',
  'shortcuts.inboxEdit': 'Edit before approving',
  'shortcuts.inboxReject': 'Reject',
  'shortcuts.saveEdit': 'Save the edit',
  'shortcuts.memoryAdd': 'Add the entry you typed',
  'shortcuts.back': 'Back to the previous screen',
  'shortcuts.forward': 'Forward again',

  'shortcuts.copied': 'Copied the last answer',
  'shortcuts.nothingToCopy': 'There is no answer to copy in this conversation yet.',
  'shortcuts.copyFailed': 'Could not copy the answer: {reason}'
} as const
