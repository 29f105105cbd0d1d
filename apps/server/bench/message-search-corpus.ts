// The messages the search benchmark stores: made up from a fixed vocabulary by a seeded generator, so that every run
// searches the same text, with a few very common words and a long tail of rare ones, as real mail has.

/** Words of the vocabulary. */
export const VOCABULARY_SIZE = 5_000;

/** A small, seeded generator of numbers in [0, 1) (mulberry32): the same seed gives the same corpus. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const SYLLABLES = [
  "ka",
  "lo",
  "mi",
  "ner",
  "tu",
  "sa",
  "vel",
  "ro",
  "di",
  "pan",
  "que",
  "zo",
  "bri",
  "te",
  "gun",
  "ha",
];

/** The `rank`-th word of the vocabulary: distinct for every rank, of letters only. */
export function vocabularyWord(rank: number): string {
  let word = "";
  let rest = rank + SYLLABLES.length;
  while (rest > 0) {
    word += SYLLABLES[rest % SYLLABLES.length];
    rest = Math.floor(rest / SYLLABLES.length);
  }
  return word;
}

/** A word drawn with a heavy skew to the first ranks (the cube of a uniform draw): rank 0 is in about 1 word in 17. */
const drawWord = (random: () => number) => vocabularyWord(Math.floor(VOCABULARY_SIZE * random() ** 3));

const words = (random: () => number, count: number) => Array.from({ length: count }, () => drawWord(random)).join(" ");

export interface CorpusMessage {
  subject: string;
  text: string;
  html: string;
  from: string;
  to: string;
}

/** The `index`-th message of the corpus: a 6-word subject, 60 words of text and 30 of html. */
export function corpusMessage(index: number): CorpusMessage {
  const random = seededRandom(index + 1);
  return {
    subject: words(random, 6),
    text: words(random, 60),
    html: `<div><p>${words(random, 15)}</p><p><b>${words(random, 15)}</b></p></div>`,
    from: `sender-${index % 500}@example.com`,
    to: `customer-${index % 2_000}@example.com`,
  };
}
