import type { CairnConfig } from '../config'
import { en as enBase, type MessageKey as BaseMessageKey } from './en'
import { zhCN as zhCNBase } from './zh-CN'
import { fillTemplate } from './fill'
import { enRecall } from './en-recall' // issue 28, part D: recalled memory and the memory providers
import { zhCNRecall } from './zh-CN-recall'
import { enImages } from './en-images' // issue 29, part E: sent images' thumbnails and viewer
import { zhCNImages } from './zh-CN-images'
import { enPrompts } from './en-prompts' // issue 29, part F: the prompt library
import { zhCNPrompts } from './zh-CN-prompts'
import { enSettingsSections } from './en-settings-sections' // issue 29, part B: Settings sections, search, sync setup, remembered keys
import { zhCNSettingsSections } from './zh-CN-settings-sections'
import { enImported } from './en-imported' // issue 29, part D: imported conversations going on, import counts
import { zhCNImported } from './zh-CN-imported'
import { enTurnFailures } from './en-turn-failures' // issue 29, part A: failed turns, their causes and fixes
import { zhCNTurnFailures } from './zh-CN-turn-failures'

/** The dictionaries of en.ts / zh-CN.ts and the ones registered here beside them. */
const en = { ...enBase, ...enRecall, ...enImages, ...enPrompts, ...enSettingsSections, ...enImported, ...enTurnFailures }
const zhCN = { ...zhCNBase, ...zhCNRecall, ...zhCNImages, ...zhCNPrompts, ...zhCNSettingsSections, ...zhCNImported, ...zhCNTurnFailures }
export type MessageKey =
  | BaseMessageKey
  | keyof typeof enRecall
  | keyof typeof enImages
  | keyof typeof enPrompts
  | keyof typeof enSettingsSections
  | keyof typeof enImported
  | keyof typeof enTurnFailures
/** A language the faces speak (`ui.language` in config.json). */
export type Language = CairnConfig['ui']['language']
export type Params = Record<string, string | number>
export type Translate = (key: MessageKey, params?: Params) => string

const dictionaries: Record<Language, Record<MessageKey, string>> = { en, 'zh-CN': zhCN }

/** Looks a string up and fills `{name}` placeholders. Falls back to English, then to the key. */
export function translate(language: Language, key: MessageKey, params?: Params): string {
  return fillTemplate(dictionaries[language]?.[key] ?? en[key] ?? key, params)
}

export function translator(language: Language): Translate {
  return (key, params) => translate(language, key, params)
}

/** BCP 47 tag for Intl formatting. */
export function localeOf(language: Language): string {
  return language === 'zh-CN' ? 'zh-CN' : 'en'
}
