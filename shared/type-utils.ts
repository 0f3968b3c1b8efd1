/** `Omit` applied to each member of a union on its own, so a discriminated union stays discriminated. */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never
