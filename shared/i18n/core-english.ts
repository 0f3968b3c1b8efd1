import { enErrors } from './en-errors'
import { fillTemplate } from './fill'
import type { Translate } from './index'

/**
 * The English the core writes beside a key (an error's message for logs and older clients, a provider
 * problem for the CLI): the error words alone, never every dictionary, because the core builds these on
 * its start-up path (settings, the ledger, the provider) and the faces word the key in their own
 * language anyway. A key outside the error words falls back to itself, as translate does.
 */
export const coreEnglish: Translate = (key, params) => fillTemplate((enErrors as Record<string, string>)[key] ?? key, params)
