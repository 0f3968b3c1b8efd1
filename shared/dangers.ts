/**
 * What a skill change adds that could hurt the user if an assistant followed it: a command that
 * fetches and runs remote code, a new network destination, a path to credentials, or an instruction
 * to skip approvals. Such a change is only ever proposed, whoever writes it (the chat, a review,
 * curation, an import, a sync), with these as its reason. Data only: the faces word it.
 */
export const dangerCodes = ['remote_code', 'network_destination', 'credentials_path', 'approval_bypass'] as const
export type DangerCode = (typeof dangerCodes)[number]

export interface ContentDanger {
  code: DangerCode
  /** The piece that shows it: the command line, the host, the path, the phrase (cut short). */
  detail: string
}

export const MAX_DANGERS_KEPT = 5

/** Dangers read from storage or the wire; what is not one is dropped. */
export function normalizeDangers(raw: unknown): ContentDanger[] {
  if (!Array.isArray(raw)) return []
  return raw
    .filter((item): item is Record<string, unknown> => Boolean(item) && typeof item === 'object')
    .filter((item) => dangerCodes.includes(item.code as DangerCode) && typeof item.detail === 'string')
    .slice(0, MAX_DANGERS_KEPT)
    .map((item) => ({ code: item.code as DangerCode, detail: String(item.detail).slice(0, 200) }))
}
