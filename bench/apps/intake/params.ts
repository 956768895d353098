/**
 * Deterministic parameter values for run `index`. Every text value differs between any two
 * indexes; the select, the radio and the checkboxes take each of their few values in turn, so
 * consecutive runs differ in them too. Index 0 ticks both checkboxes, so a recording made with
 * params(0) sets (and binds) both.
 */
import type { BenchParams } from '../contract.js';
import { INSURANCE, STATES } from './fields.js';

const FIRST = [
  'Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Claude', 'Margaret', 'Dennis',
  'Radia', 'Ken', 'Hedy', 'Niklaus', 'Karen', 'Tony', 'Sophie', 'Leslie', 'Jean', 'Butler',
  'Adele', 'John', 'Lynn', 'Robin', 'Mary', 'Peter', 'Evelyn', 'Marvin', 'Shafi', 'Carl',
  'Ida', 'Ivan', 'Joan', 'Seymour', 'Anita', 'Herbert', 'Cynthia', 'Douglas', 'Susan', 'Whitfield',
];

const LAST = [
  'Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Shannon', 'Hamilton', 'Ritchie',
  'Perlman', 'Thompson', 'Lamarr', 'Wirth', 'Jones', 'Hoare', 'Wilson', 'Lamport', 'Bartik', 'Lampson',
  'Goldberg', 'McCarthy', 'Conway', 'Milner', 'Kenneth', 'Naur', 'Berezin', 'Minsky', 'Goldwasser', 'Petri',
  'Rhodes', 'Sutherland', 'Clarke', 'Papert', 'Borg', 'Simon', 'Dwork', 'Engelbart', 'Kare', 'Diffie', 'Backus',
];

const STREETS = [
  'Maple Avenue', 'Oak Street', 'Cedar Lane', 'Birch Road', 'Elm Court', 'Pine Drive', 'Willow Way',
  'Aspen Place', 'Spruce Terrace', 'Hawthorn Boulevard', 'Juniper Circle', 'Magnolia Street', 'Sycamore Row',
  'Chestnut Avenue', 'Poplar Lane', 'Alder Road', 'Hemlock Drive', 'Laurel Street', 'Linden Way', 'Beech Court',
  'Redwood Parkway', 'Cypress Lane', 'Hazel Avenue',
];

const CITIES = [
  'Springfield', 'Riverton', 'Fairview', 'Greenville', 'Franklin', 'Clinton', 'Ashland', 'Milford', 'Dayton',
  'Kingston', 'Lakewood', 'Burlington', 'Georgetown', 'Oakdale', 'Madison', 'Bristol', 'Salem', 'Hudson', 'Auburn',
  'Dover', 'Newport', 'Lexington', 'Marion', 'Troy', 'Winchester', 'Centerville', 'Oxford', 'Jackson', 'Bedford',
];
const CITY_SUFFIXES = ['Heights', 'Falls', 'Junction', 'Park', 'Crossing', 'Hills'];

const NOTES = [
  'Allergic to penicillin',
  'Prefers morning appointments',
  'Referred by Dr. Patel',
  'Needs a wheelchair-accessible room',
  'Hearing impaired, speak clearly',
  'Takes blood thinners',
  'First visit in five years',
  'Bring prior X-rays',
  'Spanish interpreter requested',
  'Latex allergy',
  'Diabetic, fasting labs ordered',
  'Transferring from Lakeside Clinic',
];

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** list[i mod n]; from the second round on, a deterministic extension keeps values unique. */
function cycle(list: readonly string[], index: number): { value: string; round: number } {
  return { value: list[index % list.length]!, round: Math.floor(index / list.length) };
}

function firstName(i: number): string {
  const { value, round } = cycle(FIRST, i);
  return round === 0 ? value : `${value} ${LETTERS[(round - 1) % 26]}.`;
}

function lastName(i: number): string {
  const { value, round } = cycle(LAST, i);
  return round === 0 ? value : `${value}-${LAST[(i + round) % LAST.length]!}`;
}

function city(i: number): string {
  const { value, round } = cycle(CITIES, i);
  return round === 0 ? value : `${value} ${CITY_SUFFIXES[(round - 1) % CITY_SUFFIXES.length]!}${round > CITY_SUFFIXES.length ? ` ${round}` : ''}`;
}

/** MM/DD/YYYY, 397 days apart from one index to the next, from 03/14/1948. */
function dob(i: number): string {
  const date = new Date(Date.UTC(1948, 2, 14) + i * 397 * 86_400_000);
  const mm = String(date.getUTCMonth() + 1).padStart(2, '0');
  const dd = String(date.getUTCDate()).padStart(2, '0');
  return `${mm}/${dd}/${date.getUTCFullYear()}`;
}

export function intakeParams(index: number): BenchParams {
  if (!Number.isInteger(index) || index < 0) throw new Error(`intake params: index must be a non-negative integer, got ${index}`);
  const i = index;
  const first = firstName(i);
  const last = lastName(i);
  const slug = (text: string) => text.toLowerCase().replace(/[^a-z]+/g, '');
  const note = cycle(NOTES, i);
  return {
    firstName: first,
    lastName: last,
    dob: dob(i),
    street: `${12 + i * 7} ${STREETS[i % STREETS.length]!}`,
    city: city(i),
    state: STATES[(i * 5 + 12) % STATES.length]!.name,
    // 7919 is prime and does not divide 89999: unique for the first 89999 indexes.
    zip: String(10000 + ((i * 7919 + 7201) % 89999)),
    // 37 is coprime with 10000: unique for the first 10000 indexes.
    phone: `(503) 555-${String((i * 37 + 142) % 10000).padStart(4, '0')}`,
    email: `${slug(first)}.${slug(last)}${i + 1}@example.org`,
    insurance: INSURANCE[(i + 1) % INSURANCE.length]!.value,
    smsReminders: i % 2 === 0,
    emailNewsletter: i % 3 !== 1,
    notes: `${note.value} (intake ${i + 1})`,
  };
}
