/**
 * English function words dropped from natural-language questions before they become an OR query:
 * question words, auxiliaries, pronouns, articles, prepositions, conjunctions and contraction
 * fragments. Content words ("first", "never", "find", "said") stay, because someone may be searching
 * for exactly them; bm25's idf already discounts the common ones.
 */
export const stopWords: ReadonlySet<string> = new Set(
  `a an the of to in on at for and or nor but if so is are was were be been being am
  do does did doing what when where who whom whose which why how
  i me my mine myself you your yours yourself we us our ours ourselves he him his himself
  she her hers herself it its itself they them their theirs themselves
  this that these those there here with by from as into onto about after before than then
  has have had having will would can could should shall may might must
  s t d ll m re ve don doesn didn isn aren wasn weren won wouldn couldn shouldn hasn haven hadn`
    .split(/\s+/)
    .filter(Boolean)
)
