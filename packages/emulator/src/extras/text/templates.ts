/**
 * The sentence templates replies are built from. Slots: `{topic}` (the main key word of the last
 * user message), `{b}` and `{c}` (further key words), `{earlier}` (a key word of an earlier turn);
 * a capitalised slot (`{Topic}`) capitalises the word.
 *
 * Invariants the tests and the docs rely on — keep them when adding templates:
 * - every sentence ends with a full stop (`.`);
 * - every BODY sentence contains the word ` the`, and a reply has at least two body sentences.
 */

/** Openers for a message that asks something (ends with `?`). */
export const QUESTION_OPENERS = [
  'That is a good question about {topic}.',
  'Here is a short answer about {topic}.',
  'Let me walk you through {topic} step by step.',
  'Sure, let us look at {topic} together.',
  'Happy to help with your question on {topic}.',
  '{Topic} is a broad subject, so I will focus on what matters most.',
];

/** Openers for a message that states or asks for something without a question mark. */
export const STATEMENT_OPENERS = [
  'Thanks for sharing your thoughts on {topic}.',
  'Happy to help with {topic}.',
  'Here is a short overview of {topic}.',
  'Let us think about {topic} for a moment.',
  'Sure, I can say a few words about {topic}.',
  '{Topic} is an interesting thing to dig into.',
];

/** Sentences that tie the reply to an earlier turn of the conversation. */
export const EARLIER_REFERENCES = [
  'Building on what we discussed about {earlier}, this follows a similar pattern.',
  'As with {earlier} earlier, the same general principles apply here.',
  'This ties back to your earlier point about {earlier}.',
  'Compared with {earlier}, which we covered before, this is a little more specific.',
];

/** The body of the reply; each contains the word ` the`. */
export const BODY_SENTENCES = [
  'The key idea behind {topic} is that {b} and {c} tend to shape the outcome together.',
  'When people look at {topic}, they usually start with the basics of {b}.',
  'A practical way to approach {topic} is to break it into small steps and check the result of each one.',
  'It helps to think about how {b} connects to {topic}, because the two often influence each other.',
  'In most cases, the simplest explanation of {topic} is also the most useful one.',
  'One common mistake with {b} is to rush the early stages, so take the time to get them right.',
  'If you compare {topic} with {c}, the differences become clearer quite quickly.',
  'The details of {b} matter, but the overall picture of {topic} matters more at the start.',
  'Many people find that {topic} makes more sense once they have tried the ideas themselves.',
  'There is no single right answer here, and the best choice depends on what you want from {topic}.',
  'A good next step would be to write down what you already know about {b} and look for the gaps.',
  'Experts on {topic} often point out that patience and steady practice beat the quick fixes.',
  'Keep in mind that {c} can change the picture, especially when the situation is unusual.',
  'For {topic}, the usual advice is to start small, measure the results and adjust as you go.',
  'It is worth reading up on the background of {topic}, since it explains why {b} works the way it does.',
  'Try to pin down the goal first, because {topic} looks very different depending on it.',
];

/** Closing sentences. */
export const CLOSERS = [
  'I hope this helps, and let me know if you would like more detail on {b}.',
  'Feel free to ask a follow-up question about {topic} at any time.',
  'If you share more about your situation, I can give more specific advice.',
  'Let me know which part of {topic} you would like to explore next.',
  'Tell me if you want a deeper look at {c} as well.',
];

/** Stand-ins for the key words when a message has too few of them (`hi`, `???`). */
export const FALLBACK_WORDS = ['this topic', 'the details', 'the context', 'your goals', 'the timing'];

/** Items joined as a sentence says them: `a`, `a and b`, `a, b and c`. */
export function sentenceList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
