import { termOrder } from '../catalog/terms.js';

/**
 * One person written several ways. Sources spell the same instructor differently from term to term:
 * case and accents ("Michiel van de Panne", "Michiel Van De Panne"; "Siân", "Sian"), a middle name or
 * initial ("Paul Carter", "Paul Martin Carter"), the name someone goes by ("Logan Smilges", "Johnathan
 * Logan Smilges") or a short form of the first name ("Nick", "Nicholas"; "Chris", "Christopher").
 * Within one course's instructors, names with the same family name are merged when their given names
 * agree by one of those rules; two names listed on the same section are never one person, and a short
 * name that fits two different people ("Chris" beside "Christopher" and "Christine") stays apart.
 */

export interface NameAppearance {
  name: string;
  term: string;
  /** Everyone listed on the same section (this name included): co-teachers are different people. */
  together?: string[];
}

export interface Person {
  /** The spelling shown: the one of the most recent term (then the most used, then the longest). */
  name: string;
  /** Every spelling merged, the shown one first. */
  variants: string[];
}

/**
 * Common English short forms whose full name does not begin with them ("Nick" → "Nicholas", "Katie"
 * → "Katherine"); a short form that begins the full one ("Chris" → "Christopher") needs no table.
 */
const SHORT_FORMS: Record<string, string[]> = {
  al: ['alan', 'allan', 'allen', 'albert', 'alfred', 'alexander'],
  ed: ['edward', 'edwin', 'edmund', 'edgar'],
  bill: ['william'],
  billy: ['william'],
  will: ['william'],
  willy: ['william'],
  liam: ['william'],
  bob: ['robert'],
  bobby: ['robert'],
  rob: ['robert'],
  robbie: ['robert'],
  bert: ['robert', 'albert', 'herbert'],
  dick: ['richard'],
  rick: ['richard', 'frederick', 'eric'],
  ricky: ['richard'],
  rich: ['richard'],
  jim: ['james'],
  jimmy: ['james'],
  jamie: ['james'],
  jack: ['john'],
  johnny: ['john', 'jonathan'],
  jon: ['john', 'jonathan'],
  mike: ['michael'],
  mick: ['michael'],
  mickey: ['michael'],
  peggy: ['margaret'],
  meg: ['margaret', 'megan'],
  maggie: ['margaret'],
  kate: ['katherine', 'catherine', 'kathryn', 'kathleen', 'katharine'],
  katie: ['katherine', 'catherine', 'kathryn', 'kathleen', 'katharine'],
  kathy: ['katherine', 'kathryn', 'kathleen', 'katharine'],
  cathy: ['catherine'],
  kat: ['katherine', 'kathryn', 'katharine'],
  liz: ['elizabeth'],
  beth: ['elizabeth', 'bethany'],
  betty: ['elizabeth'],
  libby: ['elizabeth'],
  sally: ['sarah'],
  sadie: ['sarah'],
  tony: ['anthony', 'antonio'],
  ted: ['edward', 'theodore'],
  teddy: ['edward', 'theodore'],
  ned: ['edward'],
  eddie: ['edward', 'edwin'],
  chuck: ['charles'],
  charlie: ['charles', 'charlotte'],
  hank: ['henry'],
  harry: ['henry', 'harold'],
  larry: ['lawrence', 'laurence'],
  jerry: ['gerald', 'jerome', 'jeremy'],
  terry: ['terence', 'terrence', 'theresa', 'teresa'],
  sandy: ['alexander', 'alexandra', 'sandra'],
  sasha: ['alexander', 'alexandra', 'aleksandr', 'aleksandra'],
  dave: ['david'],
  davy: ['david'],
  steve: ['stephen', 'steven'],
  joe: ['joseph'],
  joey: ['joseph'],
  jeff: ['geoffrey'],
  jenny: ['jennifer'],
  sue: ['susan', 'suzanne', 'susanne'],
  susie: ['susan', 'suzanne', 'susanne'],
  suzy: ['susan', 'suzanne', 'susanne'],
  tom: ['thomas'],
  tommy: ['thomas'],
  danny: ['daniel'],
  kenny: ['kenneth'],
  becky: ['rebecca'],
  abby: ['abigail'],
  mandy: ['amanda'],
  cindy: ['cynthia'],
  debbie: ['deborah', 'debra'],
  deb: ['deborah', 'debra'],
  polly: ['mary'],
  molly: ['mary'],
  walt: ['walter'],
  wally: ['walter'],
  jake: ['jacob'],
  andy: ['andrew', 'andreas'],
  drew: ['andrew'],
  fred: ['frederick', 'alfred', 'frederic'],
  freddie: ['frederick', 'alfred'],
  gerry: ['gerald', 'geraldine'],
  pete: ['peter'],
  nate: ['nathan', 'nathaniel'],
  zach: ['zachary'],
  zack: ['zachary'],
  manny: ['emmanuel', 'manuel'],
  vicky: ['victoria'],
  tina: ['christina', 'kristina'],
  nick: ['nicholas', 'nicolas', 'nikolas', 'nikolai', 'dominic'],
  nicky: ['nicholas', 'nicolas', 'nicole'],
  nikki: ['nicole', 'nicola'],
  frank: ['francis', 'francesco', 'franklin', 'francisco'],
  abe: ['abraham'],
  gabe: ['gabriel'],
  hal: ['harold', 'henry'],
  jackie: ['jacqueline'],
  becca: ['rebecca'],
  toni: ['antonia'],
  kit: ['christopher', 'katherine'],
  betsy: ['elizabeth'],
  jo: ['joanne', 'johanna', 'josephine', 'joanna'],
  mikey: ['michael'],
};

/** Shortest first name that may stand for a longer one it begins (so "Al" needs the table, "Ben" does not). */
const MIN_PREFIX = 3;

interface Parsed {
  name: string;
  family: string;
  given: string[];
}

/** Lower case, accents and punctuation gone, mis-decoded characters dropped: what two spellings share. */
function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z\s-]+/g, '')
    .trim();
}

function parse(name: string): Parsed {
  const words = fold(name).split(/[\s-]+/).filter(Boolean);
  return { name, family: words.at(-1) ?? '', given: words.slice(0, -1) };
}

const isInitial = (word: string) => word.length === 1;

/** Whether two first names may be one person's: equal, a short form beginning the full one, or a known short form. */
function firstNamesAgree(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (isInitial(short)) return long.startsWith(short);
  if (short.length >= MIN_PREFIX && long.startsWith(short)) return true;
  return (SHORT_FORMS[short] ?? []).includes(long) || (SHORT_FORMS[short] ?? []).some((full) => SHORT_FORMS[long]?.includes(full));
}

/** Given names of two spellings with the same family name: the same person by one of the rules above. */
function sameGivenNames(a: string[], b: string[]): boolean {
  if (!a.length || !b.length) return a.length === b.length;
  const [firstA, firstB] = [a[0]!, b[0]!];
  // A middle name or the name someone goes by: one's first given name is among the other's given names.
  if (!isInitial(firstA) && b.includes(firstA)) return true;
  if (!isInitial(firstB) && a.includes(firstB)) return true;
  // "J. Frank Li" goes by Frank: the initial fits "Jiaze Li" only if the name he goes by does too.
  const named = (given: string[]) => given.slice(1).filter((word) => !isInitial(word));
  if (isInitial(firstA) && !named(a).every((word) => b.includes(word))) return false;
  if (isInitial(firstB) && !named(b).every((word) => a.includes(word))) return false;
  return firstNamesAgree(firstA, firstB);
}

/** Whether two spellings name one person (same family name, agreeing given names). */
export function samePerson(a: string, b: string): boolean {
  const [pa, pb] = [parse(a), parse(b)];
  return pa.family !== '' && pa.family === pb.family && sameGivenNames(pa.given, pb.given);
}

/** How close the evidence is: spellings that fold to the same text merge before middle names, and those before short forms. */
function strength(a: Parsed, b: Parsed): number {
  if (a.given.join(' ') === b.given.join(' ')) return 0;
  if (a.given[0] === b.given[0]) return 1;
  if (b.given.includes(a.given[0] ?? '') || a.given.includes(b.given[0] ?? '')) return 2;
  return 3;
}

/** Every person among the names of one course's sections, each with the spellings merged into them. */
export function mergeInstructors(appearances: NameAppearance[]): Person[] {
  const names = [...new Set(appearances.map((a) => a.name.trim()).filter(Boolean))];
  const parsed = new Map(names.map((name) => [name, parse(name)]));
  const apart = new Set<string>();
  for (const appearance of appearances) {
    for (const other of appearance.together ?? []) if (other !== appearance.name) apart.add(`${appearance.name}\u0000${other}`);
  }
  const group = new Map(names.map((name) => [name, [name]]));
  const compatible = (x: string, y: string) => !apart.has(`${x}\u0000${y}`) && !apart.has(`${y}\u0000${x}`) && samePerson(x, y);
  const pairs: [string, string, number][] = [];
  names.forEach((a, i) =>
    names.slice(i + 1).forEach((b) => {
      if (compatible(a, b)) pairs.push([a, b, strength(parsed.get(a)!, parsed.get(b)!)]);
    }),
  );
  pairs.sort((x, y) => x[2] - y[2]);
  for (const [a, b] of pairs) {
    const [ga, gb] = [group.get(a)!, group.get(b)!];
    if (ga === gb) continue;
    // Merged only when every spelling of one fits every spelling of the other: "Chris" beside
    // "Christopher" and "Christine" joins neither once those two are known to differ.
    if (!ga.every((x) => gb.every((y) => compatible(x, y)))) continue;
    if (ambiguous(a, b, names, compatible) || ambiguous(b, a, names, compatible)) continue;
    const merged = [...ga, ...gb];
    for (const name of merged) group.set(name, merged);
  }
  const seen = new Set<string[]>();
  const people: Person[] = [];
  for (const members of group.values()) {
    if (seen.has(members)) continue;
    seen.add(members);
    const ranked = [...members].sort((x, y) => preferred(x, y, appearances));
    people.push({ name: ranked[0]!, variants: ranked });
  }
  return people;
}

/** A short name that fits another spelling which does not fit its partner: two people could be meant. */
function ambiguous(name: string, partner: string, names: string[], compatible: (x: string, y: string) => boolean): boolean {
  return names.some((other) => other !== name && other !== partner && compatible(name, other) && !compatible(partner, other));
}

/**
 * Which spelling to show first: one not written in capitals, then the one of the most recent term
 * (the name a student meets now), then the most used, then the longest.
 */
function preferred(x: string, y: string, appearances: NameAppearance[]): number {
  const facts = (name: string) => {
    const mine = appearances.filter((a) => a.name.trim() === name);
    return { shouting: /\b[A-Z]{3,}\b/.test(name) ? 1 : 0, newest: Math.max(0, ...mine.map((a) => termOrder(a.term) || 0)), uses: mine.length };
  };
  const [a, b] = [facts(x), facts(y)];
  return a.shouting - b.shouting || b.newest - a.newest || b.uses - a.uses || y.length - x.length || x.localeCompare(y);
}

/** Each spelling's person, for lookups: spelling → the person it belongs to. */
export function personBySpelling(people: Person[]): Map<string, Person> {
  return new Map(people.flatMap((person) => person.variants.map((variant) => [variant, person] as const)));
}

/**
 * The spellings that belong to whoever a typed name fits: a spelling containing it ("bradley"), or a
 * person it names by another spelling ("Nick Bradley" for "Nicholas Bradley"), with all their spellings.
 */
export function teachersMatching(typed: string, appearances: NameAppearance[]): Set<string> {
  const needle = fold(typed);
  const people = mergeInstructors(appearances);
  const fits = (person: Person) => person.variants.some((variant) => fold(variant).includes(needle) || samePerson(variant, typed));
  return new Set(people.filter(fits).flatMap((person) => person.variants));
}
