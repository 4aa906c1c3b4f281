import { CliError } from './connection.js';

export interface TypedCourse {
  code: string;
  grade?: string;
}

const SUBJECT = /^[A-Za-z]{2,5}(?:-[A-Za-z])?$/;
const NUMBER = /^\d{3,4}[A-Za-z]?$/;
const JOINED = /^([A-Za-z]{2,5})-?(\d{3,4}[A-Za-z]?)$/;
const GRADE = /^(?:[A-D][+-]?|F|P|S|CR|\d{1,3}%?)$/i;

/**
 * Course codes as a student types them on a command line, quoted or not: `CPSC 1150 MATH 1171`,
 * `"CPSC 1150, MATH 1171"`, `cpsc1150`, `CPSC 1150 1160` (a bare number takes the subject before it)
 * and, where grades are asked for, a grade after a code (`CMPT 125 B`, `CMPT 125:B+`). Anything else
 * is a usage error naming the word it could not read.
 */
export function readCourseCodes(args: string[], options: { grades?: boolean; example: string }): TypedCourse[] {
  const words = args.flatMap((arg) => arg.split(/[\s,;:=]+/)).filter(Boolean);
  const courses: TypedCourse[] = [];
  let subject: string | undefined;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const joined = JOINED.exec(word);
    const last = courses[courses.length - 1];
    if (joined) {
      subject = joined[1]!.toUpperCase();
      courses.push({ code: `${subject} ${joined[2]!.toUpperCase()}` });
    } else if (SUBJECT.test(word) && NUMBER.test(words[i + 1] ?? '')) {
      subject = word.toUpperCase();
      courses.push({ code: `${subject} ${words[++i]!.toUpperCase()}` });
    } else if (NUMBER.test(word) && subject) {
      courses.push({ code: `${subject} ${word.toUpperCase()}` });
    } else if (options.grades && last && !last.grade && GRADE.test(word)) {
      last.grade = word.toUpperCase();
    } else {
      throw new CliError(`Could not read "${word}" as a course code; write codes like ${options.example}.`, 'USAGE', 2);
    }
  }
  return courses;
}
