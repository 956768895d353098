/**
 * The admin grid's customers: 30 records, some sharing a surname (a surname search finds two,
 * a full-name search exactly one). No full name is part of another customer's name.
 */

export type Customer = {
  id: number;
  name: string;
  phone: string;
  email: string;
  city: string;
  vip: boolean;
};

const RAW: readonly [string, string][] = [
  ['Ana Silva', 'Lisbon'],
  ['Rui Silva', 'Porto'],
  ['Marta Costa', 'Braga'],
  ['Tomas Novak', 'Brno'],
  ['Helen Park', 'Leeds'],
  ['Daniel Okafor', 'Lagos'],
  ['Sofia Rossi', 'Milan'],
  ['Luca Rossi', 'Turin'],
  ['Emma Larsen', 'Aarhus'],
  ['Jonas Weber', 'Bremen'],
  ['Clara Weber', 'Hamburg'],
  ['Omar Haddad', 'Lyon'],
  ['Grace Lee', 'Bristol'],
  ['Ivan Petrov', 'Varna'],
  ['Nora Berg', 'Oslo'],
  ['Paul Dubois', 'Lille'],
  ['Lena Fischer', 'Graz'],
  ['Mateo Garcia', 'Seville'],
  ['Lucia Garcia', 'Valencia'],
  ['Hugo Martin', 'Nantes'],
  ['Zoe Adams', 'Cardiff'],
  ['Aaron Cohen', 'Haifa'],
  ['Mia Jensen', 'Odense'],
  ['Karl Schmidt', 'Munich'],
  ['Julia Nowak', 'Krakow'],
  ['Ravi Patel', 'Leicester'],
  ['Yuki Tanaka', 'Osaka'],
  ['Felix Braun', 'Vienna'],
  ['Ines Moreau', 'Nice'],
  ['Sam Wilson', 'York'],
];

/** The original data; the server works on a copy that `reset()` restores from this. */
export const CUSTOMERS: readonly Customer[] = RAW.map(([name, city], index) => {
  const id = 101 + index;
  const [first = '', last = ''] = name.toLowerCase().split(' ');
  return {
    id,
    name,
    phone: `555-01${String(index).padStart(2, '0')}`,
    email: `${first}.${last}@mail.example`,
    city,
    vip: id % 4 === 1,
  };
});

export function cloneCustomers(): Customer[] {
  return CUSTOMERS.map((c) => ({ ...c }));
}

/** Case-insensitive substring search on the name; an empty query finds everyone. */
export function searchCustomers(customers: readonly Customer[], query: string): Customer[] {
  const q = query.trim().toLowerCase().replace(/\s+/g, ' ');
  if (q === '') return [...customers];
  return customers.filter((c) => c.name.toLowerCase().includes(q));
}
