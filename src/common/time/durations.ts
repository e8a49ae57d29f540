/** A day in milliseconds (UTC days: the history's partitions and the retentions count them). */
export const DAY_MS = 86_400_000;
