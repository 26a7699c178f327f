/**
 * Realistic but fake reference data for the sample: names, places, payers, practices, procedure and
 * diagnosis codes with plausible descriptions and fees. Every person, practice and payer here is invented;
 * the CPT/HCPCS and ICD-10 codes are real codes so that code comparators are exercised on real shapes.
 */

export const FIRST_NAMES = [
  'James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth', 'William', 'Barbara',
  'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Karen', 'Carlos', 'Sarah', 'Daniel', 'Lisa', 'Matthew', 'Nancy',
  'Anthony', 'Sandra', 'Mark', 'Ashley', 'Olivia', 'Kevin', 'Emily', 'Brian', 'Donna', 'Luis', 'Michelle', 'Andrew',
  'Carol', 'Joshua', 'Amanda', 'Kenneth', 'Melissa', 'Wei', 'Priya', 'Omar', 'Fatima', 'Hiroshi', 'Ana', 'Dmitri',
] as const;
export const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez',
  'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Perez', 'Thompson',
  'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright',
  'Scott', 'Nguyen', 'Hill', 'Flores', 'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell',
  'Carter', 'Patel', 'Okafor', 'Kowalski', 'Yamamoto', 'Schultz', "O'Brien",
] as const;
export const STREET_NAMES = [
  'Maple', 'Oak', 'Cedar', 'Pine', 'Elm', 'Washington', 'Lake', 'Hill', 'Park', 'Sunset', 'Ridge', 'Willow', 'Church',
  'Highland', 'Meadow', 'River', 'Spring', 'Jefferson', 'Franklin', 'Lincoln', 'Chestnut', 'Walnut', 'Birch', 'Laurel',
] as const;
export const STREET_SUFFIXES = ['St', 'Ave', 'Rd', 'Dr', 'Ln', 'Blvd', 'Ct', 'Way', 'Pl'] as const;
/** City, state, ZIP prefix (a real 3-digit prefix for that area). */
export const PLACES = [
  ['Springfield', 'IL', '627'], ['Columbus', 'OH', '432'], ['Madison', 'WI', '537'], ['Austin', 'TX', '787'],
  ['Boise', 'ID', '837'], ['Raleigh', 'NC', '276'], ['Tucson', 'AZ', '857'], ['Albany', 'NY', '122'],
  ['Des Moines', 'IA', '503'], ['Richmond', 'VA', '232'], ['Omaha', 'NE', '681'], ['Portland', 'OR', '972'],
  ['Knoxville', 'TN', '379'], ['Fresno', 'CA', '937'], ['Tulsa', 'OK', '741'], ['Harrisburg', 'PA', '171'],
  ['Lansing', 'MI', '489'], ['Savannah', 'GA', '314'], ['Reno', 'NV', '895'], ['Burlington', 'VT', '054'],
] as const;

export const PRACTICE_STEMS = ['Riverside', 'Lakeview', 'Cedar Valley', 'Northgate', 'Summit', 'Prairie', 'Harborview', 'Oak Hollow', 'Bluebird', 'Stonebridge', 'Willow Creek', 'Pioneer'] as const;
export const PRACTICE_KINDS = ['Family Medicine', 'Internal Medicine', 'Orthopedics & Sports Medicine', 'Primary Care Associates', 'Medical Group', 'Podiatry Clinic', 'Urgent Care', 'ENT & Allergy'] as const;
export const PRACTICE_ENTITY = ['PC', 'LLC', 'PLLC', 'PA', ''] as const;

/** Invented payers: plan name and a claims address. */
export const PAYERS = [
  { name: 'Blue Meridian Health Plan', plan: 'PPO', street: 'PO Box 14520', place: ['Chicago', 'IL', '60614'] },
  { name: 'Summit Mutual Insurance', plan: 'HMO', street: 'PO Box 3300', place: ['Hartford', 'CT', '06103'] },
  { name: 'Evergreen Health Partners', plan: 'EPO', street: '1200 Commerce Pkwy', place: ['Seattle', 'WA', '98101'] },
  { name: 'Keystone Benefit Administrators', plan: 'PPO', street: 'PO Box 880', place: ['Pittsburgh', 'PA', '15222'] },
  { name: 'Sunrise Medical Assurance', plan: 'POS', street: 'PO Box 61007', place: ['Phoenix', 'AZ', '85004'] },
  { name: 'Heartland Community Health', plan: 'HMO', street: '45 Grand Ave', place: ['Kansas City', 'MO', '64106'] },
  { name: 'Atlantic Coast Health Insurance', plan: 'PPO', street: 'PO Box 7720', place: ['Jacksonville', 'FL', '32202'] },
] as const;

export interface ProcedureCode {
  code: string;
  description: string;
  /** Short description for narrow EOB columns. */
  short: string;
  /** Typical fee per unit, in cents. */
  fee: number;
  /** Units normally billed: [min, max]. */
  units: readonly [number, number];
  /** Modifiers that make sense on this code. */
  modifiers?: readonly string[];
  /** Evaluation and management visit (one per claim, gets modifier 25 when a procedure is billed the same day). */
  visit?: boolean;
}

export const PROCEDURES: readonly ProcedureCode[] = [
  { code: '99202', description: 'Office visit, new patient, straightforward', short: 'New patient visit', fee: 11000, units: [1, 1], visit: true },
  { code: '99203', description: 'Office visit, new patient, low complexity', short: 'New patient visit', fee: 16500, units: [1, 1], visit: true },
  { code: '99213', description: 'Office visit, established patient, low', short: 'Office visit est.', fee: 12500, units: [1, 1], visit: true },
  { code: '99214', description: 'Office visit, established patient, moderate', short: 'Office visit est.', fee: 18500, units: [1, 1], visit: true },
  { code: '85025', description: 'Complete blood count (CBC) with differential', short: 'CBC w/ diff', fee: 3500, units: [1, 1] },
  { code: '80053', description: 'Comprehensive metabolic panel', short: 'Metabolic panel', fee: 4800, units: [1, 1] },
  { code: '80061', description: 'Lipid panel', short: 'Lipid panel', fee: 4200, units: [1, 1] },
  { code: '83036', description: 'Hemoglobin A1c', short: 'HbA1c', fee: 3000, units: [1, 1] },
  { code: '36415', description: 'Routine venipuncture', short: 'Venipuncture', fee: 1500, units: [1, 1] },
  { code: '81002', description: 'Urinalysis, non-automated, without microscopy', short: 'Urinalysis', fee: 1200, units: [1, 1] },
  { code: '87880', description: 'Rapid strep test (Streptococcus, group A)', short: 'Rapid strep', fee: 2800, units: [1, 1] },
  { code: '93000', description: 'Electrocardiogram, complete', short: 'ECG complete', fee: 6500, units: [1, 1] },
  { code: '71046', description: 'Chest X-ray, 2 views', short: 'Chest X-ray 2V', fee: 9500, units: [1, 1] },
  { code: '73610', description: 'X-ray ankle, complete, 3 views', short: 'Ankle X-ray', fee: 8800, units: [1, 1], modifiers: ['LT', 'RT'] },
  { code: '20610', description: 'Arthrocentesis/injection, major joint', short: 'Joint injection', fee: 15000, units: [1, 1], modifiers: ['LT', 'RT'] },
  { code: '96372', description: 'Therapeutic injection, subcutaneous or IM', short: 'Injection SC/IM', fee: 3800, units: [1, 2] },
  { code: 'J1100', description: 'Injection, dexamethasone sodium phosphate, 1 mg', short: 'Dexamethasone 1mg', fee: 250, units: [4, 10] },
  { code: 'J3301', description: 'Injection, triamcinolone acetonide, 10 mg', short: 'Triamcinolone 10mg', fee: 600, units: [2, 4] },
  { code: '90686', description: 'Influenza vaccine, quadrivalent, preservative free', short: 'Flu vaccine', fee: 3200, units: [1, 1] },
  { code: '90471', description: 'Immunization administration, first vaccine', short: 'Immunization admin', fee: 2500, units: [1, 1] },
  { code: '97110', description: 'Therapeutic exercise, each 15 minutes', short: 'Ther. exercise 15m', fee: 4500, units: [1, 4], modifiers: ['GP'] },
  { code: '97140', description: 'Manual therapy techniques, each 15 minutes', short: 'Manual therapy 15m', fee: 4200, units: [1, 3], modifiers: ['GP', '59'] },
  { code: '11721', description: 'Debridement of nails, 6 or more', short: 'Nail debridement', fee: 6000, units: [1, 1] },
  { code: '17110', description: 'Destruction of benign lesions, up to 14', short: 'Lesion destruction', fee: 14000, units: [1, 1] },
  { code: '12001', description: 'Simple repair of superficial wound, 2.5 cm or less', short: 'Simple wound repair', fee: 17500, units: [1, 1] },
  { code: '69210', description: 'Removal of impacted cerumen, unilateral', short: 'Cerumen removal', fee: 7000, units: [1, 1], modifiers: ['LT', 'RT'] },
  { code: '94640', description: 'Inhalation treatment (nebulizer)', short: 'Nebulizer tx', fee: 4000, units: [1, 2] },
  { code: '29125', description: 'Application of short arm splint, static', short: 'Short arm splint', fee: 9000, units: [1, 1], modifiers: ['LT', 'RT'] },
  { code: 'A4550', description: 'Surgical tray', short: 'Surgical tray', fee: 1800, units: [1, 1] },
  { code: 'G0008', description: 'Administration of influenza virus vaccine', short: 'Flu vaccine admin', fee: 2500, units: [1, 1] },
  { code: '99406', description: 'Smoking cessation counseling, 3-10 minutes', short: 'Smoking cessation', fee: 2800, units: [1, 1] },
  { code: '99000', description: 'Specimen handling, office to laboratory', short: 'Specimen handling', fee: 1000, units: [1, 1] },
];

/** ICD-10-CM codes with their descriptions (dots kept: the sample's comparator ignores them). */
export const DIAGNOSES = [
  ['E11.9', 'Type 2 diabetes mellitus without complications'],
  ['I10', 'Essential (primary) hypertension'],
  ['E78.5', 'Hyperlipidemia, unspecified'],
  ['J06.9', 'Acute upper respiratory infection, unspecified'],
  ['J02.9', 'Acute pharyngitis, unspecified'],
  ['R05.9', 'Cough, unspecified'],
  ['M25.561', 'Pain in right knee'],
  ['M54.50', 'Low back pain, unspecified'],
  ['M17.11', 'Unilateral primary osteoarthritis, right knee'],
  ['S93.401A', 'Sprain of unspecified ligament of right ankle, initial encounter'],
  ['N39.0', 'Urinary tract infection, site not specified'],
  ['Z00.00', 'General adult medical examination without abnormal findings'],
  ['Z23', 'Encounter for immunization'],
  ['L60.0', 'Ingrowing nail'],
  ['B07.8', 'Other viral warts'],
  ['H61.21', 'Impacted cerumen, right ear'],
  ['J45.909', 'Unspecified asthma, uncomplicated'],
  ['K21.9', 'Gastro-esophageal reflux disease without esophagitis'],
  ['F17.210', 'Nicotine dependence, cigarettes, uncomplicated'],
  ['S61.411A', 'Laceration without foreign body of right hand, initial encounter'],
  ['R51.9', 'Headache, unspecified'],
  ['E55.9', 'Vitamin D deficiency, unspecified'],
] as const;

/** Remark codes printed on EOBs (CARC-style group/reason codes). */
export const REMARKS = [
  ['CO-45', 'Charge exceeds fee schedule/maximum allowable; provider write-off.'],
  ['PR-1', 'Deductible amount.'],
  ['PR-2', 'Coinsurance amount.'],
  ['PR-3', 'Co-payment amount.'],
] as const;
