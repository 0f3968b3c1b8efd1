/**
 * English words for a conversation's workspace: the folder shown in the chat header, the dialog that
 * changes it, and why a folder was refused (`WORKSPACE` errors). Part of the English dictionary (`en.ts`).
 */
export const enWorkspace = {
  'workspace.label': 'Folder: {name}',
  'workspace.change': 'Change the folder Cairn works in (now {path})',
  'workspace.pickTitle': 'Choose the folder Cairn works in',
  'workspace.dialogTitle': 'Folder for this conversation',
  'workspace.dialogBody': 'Cairn reads, writes and runs commands in this folder. A folder that does not exist yet is created.',
  'workspace.dialogBodyNext': 'The change applies from the next message.',
  'workspace.pathLabel': 'Full path of the folder',
  'workspace.use': 'Use this folder',
  'workspace.changed': 'Cairn now works in {path}.',

  'workspace.problem.not_absolute': 'Type the full path of the folder, starting from the top of the disk (/ or a drive letter like C:\\).',
  'workspace.problem.missing': 'There is no folder {path}.',
  'workspace.problem.not_folder': '{path} is a file, not a folder.',
  'workspace.problem.forbidden': '{path} is inside {root}, where Cairn itself lives. Choose a folder of your own.',
  'workspace.problem.cannot_create': 'Cairn could not create the folder {path}.'
} as const
