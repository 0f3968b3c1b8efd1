/** Issue 28, part B: a workspace's project memory and the repository's instructions. */
export const enProject = {
  'memory.project.title': 'This project',
  'memory.project.lead': 'Facts about the workspace {name}, loaded only in its conversations (PROJECT.md in the data home, never in the repository).',
  'memory.project.placeholder': 'e.g. Tests run with npm test; the API lives in server/',
  'review.project': 'Project memory updated',
  'tools.store.project': 'project memory',
  'tray.store.project': 'Project',
  'project.instructions.label': 'Project instructions',
  'project.instructions.loaded': 'Read at the start: {files}',
  'project.instructions.open': 'Open {file}',
  'project.instructions.blocked': '{file} was not used: it holds text that tries to instruct the assistant ({why}).',
  'project.instructions.cut': '{file} was cut to its first {chars} characters.',
  'project.instructions.cliLine': 'Project instructions: {files}',
} as const
