import { describe, expect, it } from "vitest";
import { corpusMessage, VOCABULARY_SIZE, vocabularyWord } from "./message-search-corpus.ts";

describe("the search benchmark's corpus", () => {
  it("has a distinct word of letters for every rank of the vocabulary", () => {
    const words = Array.from({ length: VOCABULARY_SIZE }, (_, rank) => vocabularyWord(rank));
    expect(new Set(words).size).toBe(VOCABULARY_SIZE);
    expect(words.every((word) => /^[a-z]+$/.test(word))).toBe(true);
  });

  it("makes the same message for the same index, so every run searches the same text", () => {
    expect(corpusMessage(41)).toEqual(corpusMessage(41));
    expect(corpusMessage(41)).not.toEqual(corpusMessage(42));
    expect(corpusMessage(7).text.split(" ")).toHaveLength(60);
  });

  it("holds the common word in most messages and the rare one in few", () => {
    const messages = Array.from({ length: 1000 }, (_, index) => corpusMessage(index));
    const holding = (word: string) =>
      messages.filter((message) => `${message.subject} ${message.text}`.split(" ").includes(word)).length;
    expect(holding(vocabularyWord(0))).toBeGreaterThan(900);
    expect(holding(vocabularyWord(VOCABULARY_SIZE - 1))).toBeLessThan(10);
  });
});
