import { normalizeCourseCode } from '../../catalog/course-ref.js';
import type { Token } from './tokenizer.js';

/** State shared by every sentence of one prerequisite text. */
export interface ParseContext {
  institution: string;
  defaultSubject?: string;
  /** Subject of the last explicit course code, for "MATH 150, 151 or 154". */
  subject?: string;
  /** Digits in that code's number: "2015" after "STAT 270" is a year, not a course. */
  numberDigits?: number;
  recommended: string[];
  notes: string[];
  /** Codes named in "(X may be taken concurrently)", marked once the sentence's tree is built. */
  concurrent: string[];
}

/** Words after which a bare number can be a course number with the subject carried over. */
const CARRY_AFTER = new Set([',', 'and', 'or', '(', '/', ';', ':', 'in', 'of', 'both', 'either', 'for']);

/** Words that make a number a quantity or level, not a course ("100 units", "300 or 400-division"). */
const QUANTITY_NEXT = /^(units?|credits?|cr\.|level|-|hours?|years?|%)$|-(level|division)$/;

/** A position in one sentence's tokens, with the small lookahead helpers the grammar needs. */
export class Cursor {
  pos = 0;

  constructor(
    readonly tokens: Token[],
    readonly source: string,
    readonly ctx: ParseContext,
    /** Exclusive bound; narrowed while a parenthesis is parsed. */
    public end = tokens.length,
  ) {}

  peek(offset = 0): Token | undefined {
    const index = this.pos + offset;
    return index < this.end ? this.tokens[index] : undefined;
  }

  done(): boolean {
    return this.pos >= this.end;
  }

  next(): Token {
    const token = this.tokens[this.pos]!;
    this.pos += 1;
    return token;
  }

  /** True when the upcoming tokens have these values (words compare lower-cased). */
  at(...values: string[]): boolean {
    return values.every((value, offset) => this.peek(offset)?.value === value);
  }

  /** Consumes the values when they are next; reports whether it did. */
  accept(...values: string[]): boolean {
    if (!this.at(...values)) return false;
    this.pos += values.length;
    return true;
  }

  textOf(from: number, to = this.pos): string {
    const first = this.tokens[from];
    const last = this.tokens[to - 1];
    return first && last && to > from ? this.source.slice(first.start, last.end) : '';
  }

  /** The course code at `offset`, resolving bare numbers against the carried subject. */
  courseAt(offset = 0): string | undefined {
    const token = this.peek(offset);
    if (token?.kind === 'course') return token.value;
    if (token?.kind !== 'number' || !/^\d{3,4}[A-Z]?$/.test(token.value)) return undefined;
    const subject = this.ctx.subject ?? this.ctx.defaultSubject;
    const before = this.tokens[this.pos + offset - 1];
    if (!subject || (before && !CARRY_AFTER.has(before.value))) return undefined;
    const digits = token.value.replace(/\D/g, '').length;
    if (this.ctx.numberDigits !== undefined && digits !== this.ctx.numberDigits) return undefined;
    if (this.quantityFollows(offset + 1)) return undefined;
    return normalizeCourseCode(`${subject} ${token.value}`);
  }

  private quantityFollows(offset: number): boolean {
    const next = this.peek(offset);
    if (!next) return false;
    if (QUANTITY_NEXT.test(next.value)) return true;
    // "300 or 400-division English courses": the number shares the level word after the connector.
    const after = this.peek(offset + 1);
    return (next.value === 'or' || next.value === 'and') && !!after && /-(level|division)$/.test(after.value);
  }

  /** Consumes a course code (explicit or carried over), remembering its subject. */
  takeCourse(): string | undefined {
    const code = this.courseAt();
    if (!code) return undefined;
    this.pos += 1;
    const [subject, number] = code.split(' ') as [string, string];
    this.ctx.subject = subject;
    this.ctx.numberDigits = number.replace(/\D/g, '').length;
    return code;
  }
}
