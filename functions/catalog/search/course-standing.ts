import { GENERIC_TITLE, INTRODUCTORY } from './student-vocabulary.js';
import { wordsOf } from './tokens.js';

/**
 * What a course's title says about it, one byte per course in the artifact: bit 0 a first course
 * ("Introduction to…", "Fundamentals of…"; a part I is weighed as a part, not twice), bit 1 a course rarely meant by a
 * topic (special topics, directed studies, theses, placements), bits 2–4 the part of a sequence its
 * title numbers (Calculus I → 1, Organic Chemistry II → 2).
 */
export const TRAIT = { introductory: 1, generic: 2 } as const;

const ROMAN: Readonly<Record<string, number>> = { i: 1, ii: 2, iii: 3, iv: 4, '1': 1, '2': 2, '3': 3, '4': 4 };

export function traitsOf(title: string | null): number {
  if (!title) return 0;
  const words = wordsOf(title);
  let traits = 0;
  if (words.some((word) => INTRODUCTORY.has(word))) traits |= TRAIT.introductory;
  if (words.some((word) => GENERIC_TITLE.has(word))) traits |= TRAIT.generic;
  const part = words.find((word) => ROMAN[word] !== undefined);
  if (part) traits |= ROMAN[part]! << 2;
  return traits;
}

export function sequenceOf(traits: number): number {
  return (traits >> 2) & 7;
}

/** How strongly the count of courses requiring one lifts it: MATH 100 at UBC (51 require it) ×2.4, CMPT 354 at SFU (3) ×1.5, a course none requires ×1. */
const CENTRALITY = 0.35;
const GENERIC = 0.7;
const GRADUATE = 0.7;

/**
 * The standing of a course before any query: how central the catalog's prerequisites make it, less
 * for special topics and theses, less for graduate courses (most students searching are not).
 */
export function standingOf(requiredBy: number, traits: number, level: number): number {
  return (1 + CENTRALITY * Math.log1p(requiredBy)) * (traits & TRAIT.generic ? GENERIC : 1) * (level >= 5 ? GRADUATE : 1);
}

/**
 * How much a course's year level counts. Asked for a first course, first year is what the student
 * means and each year up less so; otherwise lower levels rank slightly higher among equal matches
 * (CMPT 225 before CMPT 307 for "data structures"), small enough that relevance still decides.
 */
export function levelWeight(level: number, introductory: boolean): number {
  const year = Math.max(1, level);
  if (introductory) return INTRODUCTORY_LEVEL[Math.min(year, INTRODUCTORY_LEVEL.length - 1)]!;
  return year >= 5 ? 1 : 1 + 0.05 * (4 - year);
}

const INTRODUCTORY_LEVEL = [1, 1, 0.7, 0.5, 0.4, 0.35];

/**
 * The pre-0033 prior, kept for the ranking as typed (the benchmark's baseline): lower levels rank
 * slightly higher, graduate courses slightly lower.
 */
export function levelPrior(level: number): number {
  if (level >= 5) return 0.9;
  return 1 + 0.05 * (4 - Math.max(1, level));
}
