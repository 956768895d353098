/**
 * The claim wizard's fixed data: the policies the lookup knows and the incident types, plus the
 * form field names shared by the server, the pages, the agent and the verifier.
 */

export type Policy = {
  number: string;
  /** The policyholder's last name; the lookup compares it case-insensitively. */
  lastName: string;
  firstName: string;
  vehicle: string;
};

/** The in-memory policy table the lookup searches (20 policies). */
export const POLICIES: readonly Policy[] = [
  { number: 'AP-204117', lastName: 'Okafor', firstName: 'Chinedu', vehicle: '2016 Toyota Corolla' },
  { number: 'AP-204132', lastName: 'Lindqvist', firstName: 'Maja', vehicle: '2019 Volvo XC60' },
  { number: 'AP-204158', lastName: 'Ramirez', firstName: 'Lucia', vehicle: '2014 Honda Civic' },
  { number: 'AP-204176', lastName: 'Nakamura', firstName: 'Kenji', vehicle: '2021 Subaru Outback' },
  { number: 'AP-204190', lastName: 'Brennan', firstName: 'Siobhan', vehicle: '2012 Ford Focus' },
  { number: 'AP-204215', lastName: 'Kowalski', firstName: 'Piotr', vehicle: '2018 Skoda Octavia' },
  { number: 'AP-204233', lastName: 'Haddad', firstName: 'Rania', vehicle: '2020 Kia Sportage' },
  { number: 'AP-204251', lastName: 'Fischer', firstName: 'Jonas', vehicle: '2017 VW Golf' },
  { number: 'AP-204279', lastName: 'Mensah', firstName: 'Ama', vehicle: '2015 Nissan Leaf' },
  { number: 'AP-204294', lastName: 'Dubois', firstName: 'Camille', vehicle: '2013 Peugeot 308' },
  { number: 'AP-204310', lastName: 'Sorensen', firstName: 'Erik', vehicle: '2022 Tesla Model 3' },
  { number: 'AP-204336', lastName: 'Alvarez', firstName: 'Diego', vehicle: '2011 Chevrolet Malibu' },
  { number: 'AP-204352', lastName: 'Petrova', firstName: 'Irina', vehicle: '2019 Mazda CX-5' },
  { number: 'AP-204377', lastName: 'Gallagher', firstName: 'Owen', vehicle: '2016 Jeep Cherokee' },
  { number: 'AP-204391', lastName: 'Tanaka', firstName: 'Yui', vehicle: '2020 Toyota Prius' },
  { number: 'AP-204418', lastName: 'Moreau', firstName: 'Luc', vehicle: '2018 Renault Clio' },
  { number: 'AP-204436', lastName: 'Adeyemi', firstName: 'Tunde', vehicle: '2015 Hyundai Elantra' },
  { number: 'AP-204459', lastName: 'Novak', firstName: 'Petra', vehicle: '2017 BMW 320i' },
  { number: 'AP-204473', lastName: 'Castillo', firstName: 'Marta', vehicle: '2021 Ford Escape' },
  { number: 'AP-204497', lastName: 'Whitfield', firstName: 'Grace', vehicle: '2014 Audi A4' },
];

/** The incident type select: value = code, label = name. */
export const INCIDENT_TYPES: readonly { code: string; label: string }[] = [
  { code: 'COL', label: 'Collision' },
  { code: 'THF', label: 'Theft' },
  { code: 'FIR', label: 'Fire' },
  { code: 'WTR', label: 'Water damage' },
  { code: 'OTH', label: 'Other' },
];

/** Parameter name → form field `name`, in wizard order. */
export const FIELD_OF_PARAM = {
  policyNumber: 'policy_number',
  lastName: 'last_name',
  incidentDate: 'incident_date',
  claimAmount: 'claim_amount',
  incidentType: 'incident_type',
  description: 'description',
  certify: 'certify',
} as const;

export type ClaimParamName = keyof typeof FIELD_OF_PARAM;

export function findPolicy(number: string, lastName: string): Policy | undefined {
  const n = number.trim().toUpperCase();
  const l = lastName.trim().toLowerCase();
  return POLICIES.find((p) => p.number === n && p.lastName.toLowerCase() === l);
}

export function incidentTypeByLabel(label: string): { code: string; label: string } | undefined {
  return INCIDENT_TYPES.find((t) => t.label.toLowerCase() === label.trim().toLowerCase());
}
