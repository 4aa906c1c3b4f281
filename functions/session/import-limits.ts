import type { FieldIssue } from '../mcp/tools/errors.js';
import { INPUT_BOUNDS } from '../mcp/tools/input-bounds.js';
import type { SessionSnapshot } from './snapshot.js';

/**
 * What an imported session may hold: what the tools themselves can write (ADR 0029). A student's
 * message is an ask's (10,000 characters); an answer is bounded so every event fits a DynamoDB item
 * with room to spare; ids and labels are the inputs' own limits.
 */
const IMPORT_LIMITS = {
  events: 5_000,
  /** tn_session_ask's `message`. */
  studentMessageChars: 10_000,
  /** UTF-8 takes at most 4 bytes a character: 60,000 characters stay under 240 KB of DynamoDB's 400 KB item. */
  answerChars: 60_000,
  /** ClientEventIdInput, DeviceIdInput. */
  idChars: 64,
  topicChars: 200,
  languageChars: 35,
  courseRefChars: 100,
  courseTitleChars: 500,
  courseTextChars: 20_000,
} as const;

const ID_PATTERN = /^[A-Za-z0-9._:-]+$/;

/** Every field of a snapshot past what the tools could have written, named; at most INPUT_BOUNDS.issuesListed. */
export function snapshotLimitIssues(snapshot: SessionSnapshot): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const over = (field: string, value: string | null | undefined, max: number) => {
    if (typeof value === 'string' && value.length > max) issues.push({ field, message: `has ${value.length} characters; at most ${max} are accepted`, code: 'too_big' });
  };
  const badId = (field: string, value: string | null) => {
    if (value !== null && (value.length > IMPORT_LIMITS.idChars || !ID_PATTERN.test(value))) {
      issues.push({ field, message: `must be at most ${IMPORT_LIMITS.idChars} letters, digits and . _ : -`, code: 'invalid_string' });
    }
  };
  const { session, events } = snapshot;
  if (events.length > IMPORT_LIMITS.events) issues.push({ field: 'snapshot.events', message: `has ${events.length} events; at most ${IMPORT_LIMITS.events} are accepted`, code: 'too_big' });
  over('snapshot.session.context.topic', session.context.topic, IMPORT_LIMITS.topicChars);
  over('snapshot.session.context.language', session.context.language, IMPORT_LIMITS.languageChars);
  over('snapshot.session.context.course', session.context.course, IMPORT_LIMITS.courseRefChars);
  over('snapshot.session.context.courseTitle', session.context.courseTitle, IMPORT_LIMITS.courseTitleChars);
  if (session.course) {
    over('snapshot.session.course.ref', session.course.ref, IMPORT_LIMITS.courseRefChars);
    over('snapshot.session.course.title', session.course.title, IMPORT_LIMITS.courseTitleChars);
    over('snapshot.session.course.description', session.course.description, IMPORT_LIMITS.courseTextChars);
    over('snapshot.session.course.prerequisitesText', session.course.prerequisitesText, IMPORT_LIMITS.courseTextChars);
  }
  for (const [index, event] of events.slice(0, IMPORT_LIMITS.events).entries()) {
    if (issues.length >= INPUT_BOUNDS.issuesListed) break;
    const at = `snapshot.events.${index}`;
    over(`${at}.content`, event.content, event.role === 'assistant' ? IMPORT_LIMITS.answerChars : IMPORT_LIMITS.studentMessageChars);
    badId(`${at}.clientEventId`, event.clientEventId);
    badId(`${at}.deviceId`, event.deviceId);
  }
  return issues.slice(0, INPUT_BOUNDS.issuesListed);
}
