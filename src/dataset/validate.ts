/**
 * `validateDataset`: everything a run would trip on, found before any paid call and reported at once, each
 * problem with the file (relative to the dataset) and the reason. Never throws for dataset problems.
 */
import { type Dirent, readFileSync } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../errors.js';
import type { Logger } from '../logger.js';
import { silentLogger } from '../logger.js';
import type { Dataset, DatasetDocument, JsonSchema } from '../types.js';
import { hashDatasetFiles, listDatasetFiles } from './content-hash.js';
import {
  BASELINE_DIR,
  CONTEXT_FILE,
  DEFAULT_MAX_FILE_BYTES,
  DOCUMENTS_DIR,
  MANIFEST_FILE,
  MEDIA_TYPE_BY_EXTENSION,
  SAFE_ID,
  SCHEMA_FILE,
  SUPPORTED_EXTENSIONS,
  TRUTH_DIR,
} from './format.js';
import {
  checkManifest,
  listSchemaFieldPaths,
  parseComparators,
  type DatasetManifest,
  type ManifestDocument,
} from './manifest.js';
import { describeRegularFile, inspectFile, type FileFacts } from './media-type.js';
import { mapInOrder } from './map-ahead.js';
import { decodeUtf8 } from './read.js';
import { checkRegionPages } from './regions.js';
import { CHECKS_FILE, parseChecksFile } from './checks-file.js';
import { checkTruthBlocks } from './truth-blocks.js';
import { checkRelativePath, resolveInside, type SafePathResult } from './safe-path.js';
import { checkJsonSchema, checkSchemaSubset, compileSchema } from './schema-subset.js';

/** One thing wrong with a dataset. Errors stop a run; warnings are printed and the run goes on. */
export interface DatasetProblem {
  severity: 'error' | 'warning';
  /** Relative to the dataset directory (POSIX separators); `.` for the directory itself. */
  file: string;
  message: string;
}

/** The outcome of validation: `dataset` is present only when there is no error. */
export interface DatasetValidation {
  problems: DatasetProblem[];
  dataset?: Dataset;
  /** `sha256:<hex>`, present whenever the directory could be read. */
  contentHash?: string;
}

export interface ValidateDatasetOptions {
  /** Documents above this size are errors. @default DEFAULT_MAX_FILE_BYTES (64 MiB) */
  maxFileBytes?: number;
}

export interface LoadDatasetOptions extends ValidateDatasetOptions {
  /** Receives the warnings. @default silentLogger */
  logger?: Logger;
}

const MEDIA_NAMES: Record<string, string> = {
  'application/pdf': 'PDF',
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/tiff': 'TIFF',
};

/** Collects problems; `file` is always relative to the dataset root. */
class ProblemList {
  readonly items: DatasetProblem[] = [];
  error(file: string, message: string): void {
    this.items.push({ severity: 'error', file, message });
  }
  warn(file: string, message: string): void {
    this.items.push({ severity: 'warning', file, message });
  }
  get hasErrors(): boolean {
    return this.items.some((problem) => problem.severity === 'error');
  }
}

/** A document candidate before its files are checked. */
interface Candidate {
  id: string;
  /** Relative path of the local file, as written. */
  file?: string;
  fileUrl?: string;
  entry?: ManifestDocument;
  /** Where to report problems with this document. */
  reportAs: string;
}

/** Validates the dataset at `dir`; see the module comment. */
export async function validateDataset(dir: string, options: ValidateDatasetOptions = {}): Promise<DatasetValidation> {
  const problems = new ProblemList();
  const root = path.resolve(dir);
  if (!(await checkIsDirectory(root, problems))) return { problems: problems.items };
  const realRoot = await realpath(root);
  const { files, escaping, linked } = await listDatasetFiles(realRoot);
  const walked: WalkedFiles = { realRoot, present: new Set(files), linked, sideIds: listSideFileIds(files) };

  const manifest = await readManifest(walked, problems);
  const schema = await readSchema(walked, problems, walked.present.has(CHECKS_FILE));
  const validateTruth = schema ? compileTruthValidator(schema, files, problems) : undefined;
  const { comparators, issues } = parseComparators(manifest?.comparators);
  for (const issue of issues) problems[issue.severity === 'error' ? 'error' : 'warn'](MANIFEST_FILE, issue.message);
  if (schema) warnUnknownComparatorPaths(Object.keys(comparators), schema, problems);
  const customContext = await readCustomContext(walked, manifest, problems);

  const candidates = manifest?.documents
    ? listManifestCandidates(manifest.documents, files, problems)
    : await discoverCandidates(realRoot, problems);
  const { slots, ids } = checkIds(candidates);
  const { documents, contentHash } = await checkDocuments(
    root,
    walked,
    files,
    slots,
    { maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, validateTruth },
    problems,
  );
  if (candidates.length === 0)
    problems.error(manifest?.documents ? MANIFEST_FILE : DOCUMENTS_DIR, 'the dataset has no documents');
  warnOrphans(files, ids, problems);
  const hasChecks = walked.present.has(CHECKS_FILE) && (await checkChecksFile(root, walked, documents, problems));
  await checkStoredMarkdown(walked, files, problems);
  // Links that no check above reported (e.g. one nobody references) are errors too: the dataset must be self-contained.
  for (const file of escaping) {
    if (!problems.items.some((problem) => problem.file === file))
      problems.error(
        file,
        'is a symlink pointing outside the dataset directory (or broken); replace it with the file itself',
      );
  }

  if (problems.hasErrors || !schema) return { problems: problems.items, contentHash };
  const dataset = assembleDataset(root, manifest, schema, comparators, documents, contentHash, customContext);
  if (hasChecks) dataset.checksFile = path.join(root, CHECKS_FILE);
  return { problems: problems.items, dataset, contentHash };
}

/** checks.jsonl: every line a valid check naming a document and page of the dataset (checks-file.ts). */
async function checkChecksFile(
  root: string,
  walked: WalkedFiles,
  documents: readonly DatasetDocument[],
  problems: ProblemList,
): Promise<boolean> {
  const text = await readTextInside(walked, CHECKS_FILE, problems);
  if (text === undefined) return false;
  const parsed = parseChecksFile(text, root, documents);
  for (const problem of parsed.problems) problems.error(CHECKS_FILE, `line ${problem.line}: ${problem.message}`);
  return parsed.problems.length === 0;
}

/** Stored systems' markdown (outputs/<system>/*.md) must be UTF-8: found here, before any call, not mid-run. */
async function checkStoredMarkdown(
  walked: WalkedFiles,
  files: readonly string[],
  problems: ProblemList,
): Promise<void> {
  for (const file of files) {
    if (file.startsWith('outputs/') && file.endsWith('.md')) await readTextInside(walked, file, problems);
  }
}

/** Whether `root` is a directory; if not, says so in `problems`. */
async function checkIsDirectory(root: string, problems: ProblemList): Promise<boolean> {
  try {
    if ((await stat(root)).isDirectory()) return true;
    problems.error('.', `${root} is not a directory`);
  } catch {
    problems.error('.', `dataset directory not found: ${root}`);
  }
  return false;
}

/**
 * Ids are checked in order (a duplicate is reported on its second use): each candidate becomes itself, or
 * the problem list that rejects it. Returns those slots and the ids taken.
 */
function checkIds(candidates: readonly Candidate[]): { slots: (Candidate | ProblemList)[]; ids: Set<string> } {
  const seen = new Map<string, string>();
  const slots = candidates.map((candidate): Candidate | ProblemList => {
    const rejected = new ProblemList();
    if (!SAFE_ID.test(candidate.id)) {
      rejected.error(
        candidate.reportAs,
        `id "${candidate.id}" is not a safe file name (use letters, digits, "-", "_", "."; not starting with ".")`,
      );
      return rejected;
    }
    const first = seen.get(candidate.id);
    if (first !== undefined) {
      rejected.error(candidate.reportAs, `duplicate id "${candidate.id}" (also used by ${first}); ids must be unique`);
      return rejected;
    }
    seen.set(candidate.id, candidate.reportAs);
    return candidate;
  });
  return { slots, ids: new Set(seen.keys()) };
}

/**
 * Hashes the dataset and checks the files of the accepted candidates DOCUMENTS_AHEAD at a time, each into its
 * own problem list, merged back into `problems` in candidate order so the report reads as it did one document
 * at a time.
 */
async function checkDocuments(
  root: string,
  walked: WalkedFiles,
  files: readonly string[],
  slots: readonly (Candidate | ProblemList)[],
  options: { maxFileBytes: number; validateTruth: ReturnType<typeof compileTruthValidator> },
  problems: ProblemList,
): Promise<{ documents: DatasetDocument[]; contentHash: string }> {
  // The hash reads every file once; the documents' sizes and media types are taken from that read instead
  // of opening each document again.
  const documentFiles = new Set(
    slots.flatMap((slot) => (slot instanceof ProblemList || slot.file === undefined ? [] : [slot.file])),
  );
  const facts = new Map<string, FileFacts>();
  const contentHash = await hashDatasetFiles(walked.realRoot, files, (relative, size, head) => {
    if (documentFiles.has(relative)) facts.set(relative, describeRegularFile(size, head));
  });
  const checked = await mapInOrder(slots, DOCUMENTS_AHEAD, async (slot) => {
    if (slot instanceof ProblemList) return { problems: slot, document: undefined };
    const own = new ProblemList();
    const document = await checkDocument(root, walked, slot, { maxFileBytes: options.maxFileBytes, facts }, own);
    if (document) await attachTruthAndBaseline(root, walked, document, options.validateTruth, own);
    return { problems: own, document };
  });
  const documents: DatasetDocument[] = [];
  for (const { problems: own, document } of checked) {
    problems.items.push(...own.items);
    if (document) documents.push(flattenPaths(document));
  }
  return { documents, contentHash };
}

/**
 * `path.join` builds a path by concatenation, and V8 keeps such a string as its parts until it is read: kept
 * for every document of a large dataset, each path took ~350 bytes instead of ~110 (docs/performance.md,
 * "Scale"). Reading a character flattens it in place.
 */
function flattenPaths(document: DatasetDocument): DatasetDocument {
  const { truth, baseline } = document;
  for (const file of [
    document.file,
    truth.json,
    truth.markdown,
    truth.regions,
    truth.blocks,
    baseline.json,
    baseline.markdown,
  ])
    file?.charCodeAt(0);
  return document;
}

/** The validated dataset, from its manifest's settings and the documents that passed. */
function assembleDataset(
  root: string,
  manifest: DatasetManifest | undefined,
  schema: JsonSchema,
  comparators: Dataset['comparators'],
  documents: DatasetDocument[],
  contentHash: string,
  customContext: Dataset['customContext'],
): Dataset {
  const dataset: Dataset = {
    root,
    name: manifest?.name ?? path.basename(root),
    locale: manifest?.locale ?? 'US',
    schema,
    defaults: {},
    comparators,
    documents,
    contentHash,
  };
  if (manifest?.version !== undefined) dataset.version = manifest.version;
  if (manifest?.markdownBlocks === true) dataset.markdownBlocks = true;
  if (manifest?.description !== undefined) dataset.description = manifest.description;
  if (customContext !== undefined) dataset.customContext = customContext;
  if (manifest?.defaults?.modes) dataset.defaults.modes = manifest.defaults.modes;
  if (manifest?.defaults?.endpoints) dataset.defaults.endpoints = manifest.defaults.endpoints;
  return dataset;
}

/**
 * Validates and returns the dataset; any error → UsageError (code DATASET_INVALID) listing every error as
 * `file: reason`. Warnings go to the logger.
 */
export async function loadDataset(dir: string, options: LoadDatasetOptions = {}): Promise<Dataset> {
  const logger = options.logger ?? silentLogger;
  const validation = await validateDataset(dir, options);
  const errors = validation.problems.filter((problem) => problem.severity === 'error');
  for (const warning of validation.problems.filter((problem) => problem.severity === 'warning'))
    logger.warn(`${dir}/${warning.file}: ${warning.message}`);
  if (errors.length > 0 || !validation.dataset) {
    const lines = errors.map((problem) => `  ${problem.file}: ${problem.message}`);
    throw new UsageError(
      `dataset ${dir} is invalid (${errors.length} error${errors.length === 1 ? '' : 's'}):\n${lines.join('\n')}`,
      {
        code: 'DATASET_INVALID',
        subject: dir,
        hint: `run \`docbench dataset validate ${dir}\` to see every problem, fix them, then rerun`,
      },
    );
  }
  return validation.dataset;
}

/** The dataset's files as the walk found them (listDatasetFiles). */
interface WalkedFiles {
  realRoot: string;
  /** Every file found. */
  present: ReadonlySet<string>;
  /** Those reached through a symlink: only these (and paths the walk did not list) need resolving. */
  linked: ReadonlySet<string>;
  /** Every id that some truth/ or baseline/ file could belong to (listSideFileIds). */
  sideIds: ReadonlySet<string>;
}

/**
 * Where `relative` is, if inside the dataset. A file the walk met as a regular file (no symlink on the way)
 * is inside the root: no lstat and realpath again. Anything else (a link, a path spelt differently) is resolved.
 */
async function locateInside(walked: WalkedFiles, relative: string): Promise<SafePathResult> {
  if (walked.present.has(relative) && !walked.linked.has(relative))
    return { ok: true, absolute: path.join(walked.realRoot, relative) };
  return resolveInside(walked.realRoot, relative);
}

/**
 * Reads a small text file inside the dataset; reports non-UTF-8 and escapes. undefined when unusable. The
 * read is synchronous: the hash has just read every file (the bytes are in the page cache), and for files
 * of a few KiB the thread pool's four round trips cost more than the read (see read-pool.ts).
 */
async function readTextInside(
  walked: WalkedFiles,
  relative: string,
  problems: ProblemList,
): Promise<string | undefined> {
  const located = await locateInside(walked, relative);
  if (!located.ok) {
    problems.error(relative, located.reason);
    return undefined;
  }
  const text = decodeUtf8(readFileSync(located.absolute));
  if (text === undefined) problems.error(relative, 'is not valid UTF-8 text; save it as UTF-8');
  return text?.replace(/^\uFEFF/, '');
}

async function readJsonInside(
  walked: WalkedFiles,
  relative: string,
  problems: ProblemList,
): Promise<{ value: unknown } | undefined> {
  const text = await readTextInside(walked, relative, problems);
  if (text === undefined) return undefined;
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    problems.error(relative, `is not valid JSON: ${(error as Error).message}`);
    return undefined;
  }
}

async function readManifest(walked: WalkedFiles, problems: ProblemList): Promise<DatasetManifest | undefined> {
  if (!walked.present.has(MANIFEST_FILE)) return undefined;
  const parsed = await readJsonInside(walked, MANIFEST_FILE, problems);
  if (!parsed) return undefined;
  const { manifest, issues } = checkManifest(parsed.value);
  for (const issue of issues) problems[issue.severity === 'error' ? 'error' : 'warn'](MANIFEST_FILE, issue.message);
  return manifest;
}

/** A dataset of documents and checks alone asks for no extraction: it needs no schema.json (docs/checks.md). */
const NO_FIELDS_SCHEMA: JsonSchema = { type: 'object', properties: {} };

async function readSchema(
  walked: WalkedFiles,
  problems: ProblemList,
  hasChecks: boolean,
): Promise<JsonSchema | undefined> {
  if (!walked.present.has(SCHEMA_FILE) && hasChecks) return NO_FIELDS_SCHEMA;
  if (!walked.present.has(SCHEMA_FILE)) {
    problems.error(
      SCHEMA_FILE,
      'missing: every dataset needs schema.json, the JSON Schema sent to /extract (`docbench dataset init` writes an example)',
    );
    return undefined;
  }
  const parsed = await readJsonInside(walked, SCHEMA_FILE, problems);
  if (!parsed) return undefined;
  const issues = checkSchemaSubset(parsed.value);
  for (const issue of issues)
    problems[issue.severity === 'error' ? 'error' : 'warn'](SCHEMA_FILE, `${issue.pointer}: ${issue.message}`);
  if (issues.some((issue) => issue.severity === 'error')) return undefined;
  return parsed.value as JsonSchema;
}

/**
 * The validator of the dataset's truth files, after checking schema.json against its meta-schema. Compiled only
 * when there is a truth file to check: a dataset without truth (a first run, a run for speed or cost) does not
 * load ajv's compiler (docs/performance.md, "Runner").
 */
function compileTruthValidator(
  schema: JsonSchema,
  files: readonly string[],
  problems: ProblemList,
): ((value: unknown) => string[]) | undefined {
  const hasTruthJson = files.some(
    (file) =>
      file.startsWith(`${TRUTH_DIR}/`) &&
      file.endsWith('.json') &&
      !file.endsWith('.regions.json') &&
      !file.endsWith('.blocks.json'),
  );
  const compiled = hasTruthJson ? compileSchema(schema) : { ok: false as const, errors: checkJsonSchema(schema) };
  if (compiled.ok) return compiled.validate;
  for (const message of compiled.errors) problems.error(SCHEMA_FILE, `not a valid JSON Schema: ${message}`);
  return undefined;
}

function warnUnknownComparatorPaths(paths: string[], schema: JsonSchema, problems: ProblemList): void {
  const known = new Set(listSchemaFieldPaths(schema));
  for (const fieldPath of paths) {
    // Arrays of scalars may be keyed with or without the trailing [] (`diagnosis_codes` or `diagnosis_codes[]`).
    if (!known.has(fieldPath) && !known.has(`${fieldPath}[]`)) {
      problems.warn(
        MANIFEST_FILE,
        `comparators["${fieldPath}"]: schema.json has no field at this path; the comparator is never used`,
      );
    }
  }
}

async function readCustomContext(
  walked: WalkedFiles,
  manifest: DatasetManifest | undefined,
  problems: ProblemList,
): Promise<string | undefined> {
  const fromManifest = manifest?.defaults?.customContext;
  if (!walked.present.has(CONTEXT_FILE)) return fromManifest;
  const text = await readTextInside(walked, CONTEXT_FILE, problems);
  if (fromManifest !== undefined) {
    problems.warn(CONTEXT_FILE, 'ignored: dataset.json defaults.customContext takes precedence');
    return fromManifest;
  }
  return text?.trim() === '' ? undefined : text?.trim();
}

function stripExtension(file: string): string {
  const base = path.posix.basename(file.replace(/\\/g, '/'));
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

function listManifestCandidates(entries: ManifestDocument[], files: string[], problems: ProblemList): Candidate[] {
  const listed = new Set<string>();
  const candidates = entries.map((entry, index): Candidate => {
    const source = entry.file ?? entry.fileUrl ?? '';
    const id = entry.id ?? stripExtension(source);
    if (entry.file !== undefined) listed.add(path.posix.normalize(entry.file.replace(/\\/g, '/')));
    const candidate: Candidate = { id, entry, reportAs: entry.file ?? `${MANIFEST_FILE} documents[${index}]` };
    if (entry.file !== undefined) candidate.file = entry.file;
    if (entry.fileUrl !== undefined) candidate.fileUrl = entry.fileUrl;
    return candidate;
  });
  for (const file of files) {
    if (file.startsWith(`${DOCUMENTS_DIR}/`) && !listed.has(file))
      problems.warn(file, 'not listed in dataset.json "documents"; ignored');
  }
  return candidates;
}

/** Without a documents list: every file in documents/ (dotfiles skipped), id = name without extension. */
async function discoverCandidates(realRoot: string, problems: ProblemList): Promise<Candidate[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(path.join(realRoot, DOCUMENTS_DIR), { withFileTypes: true });
  } catch {
    problems.error(
      `${DOCUMENTS_DIR}/`,
      'missing: put the documents in documents/ or list them in dataset.json "documents"',
    );
    return [];
  }
  const candidates: Candidate[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name.startsWith('.')) continue;
    const relative = `${DOCUMENTS_DIR}/${entry.name}`;
    if (entry.isDirectory()) {
      problems.warn(
        relative,
        'subdirectories of documents/ are not scanned; list such files in dataset.json "documents"',
      );
      continue;
    }
    candidates.push({ id: stripExtension(entry.name), file: relative, reportAs: relative });
  }
  return candidates;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${bytes} bytes`;
}

/** Documents whose files are checked at once: enough to keep a disk's queue full, few enough for any fd limit. */
const DOCUMENTS_AHEAD = 32;

/** What checkDocument knows of the documents before it looks at one. */
interface DocumentLimits {
  maxFileBytes: number;
  /** Size and media type of each document file the hash read, by its path as the walk listed it. */
  facts: ReadonlyMap<string, FileFacts>;
}

/** Checks one document's file (or URL); returns the document with its media type, or undefined on error. */
async function checkDocument(
  root: string,
  walked: WalkedFiles,
  candidate: Candidate,
  limits: DocumentLimits,
  problems: ProblemList,
): Promise<DatasetDocument | undefined> {
  const entry = candidate.entry;
  const document: DatasetDocument = { id: candidate.id, tags: { ...(entry?.tags ?? {}) }, truth: {}, baseline: {} };
  if (entry?.customContext !== undefined) document.customContext = entry.customContext;
  if (entry?.modes) document.modes = entry.modes;
  if (entry?.endpoints) document.endpoints = entry.endpoints;
  if (candidate.fileUrl !== undefined) {
    document.fileUrl = candidate.fileUrl;
    return document;
  }
  const relative = candidate.file ?? '';
  const at = candidate.reportAs;
  const lexical = checkRelativePath(relative);
  if (lexical) return void problems.error(at, lexical);
  const extension = path.extname(relative).toLowerCase();
  const expected = MEDIA_TYPE_BY_EXTENSION[extension];
  if (!expected) {
    return void problems.error(
      at,
      `unsupported format "${extension || '(no extension)'}" (supported: ${SUPPORTED_EXTENSIONS.join(', ')})`,
    );
  }
  const located = await locateInside(walked, relative);
  if (!located.ok) return void problems.error(at, located.reason);
  let info = limits.facts.get(relative);
  if (!info) {
    // A path the walk did not list as spelt (so the hash did not read it): stat'ed before it is opened, as a
    // FIFO must not block the validator.
    if (!(await stat(located.absolute)).isFile()) return void problems.error(at, 'is not a regular file');
    info = await inspectFile(located.absolute);
  }
  if (!info.isFile) return void problems.error(at, 'is not a regular file');
  if (info.size === 0) return void problems.error(at, 'is empty (0 bytes)');
  if (info.size > limits.maxFileBytes)
    return void problems.error(
      at,
      `is ${formatBytes(info.size)}, over the size limit of ${formatBytes(limits.maxFileBytes)}`,
    );
  const sniffed = info.mediaType;
  if (!sniffed)
    return void problems.error(
      at,
      `content is not a PDF, PNG, JPEG or TIFF although the extension says "${extension}"`,
    );
  if (sniffed !== expected) {
    return void problems.error(
      at,
      `content is ${MEDIA_NAMES[sniffed] ?? sniffed} but the extension "${extension}" says ${MEDIA_NAMES[expected] ?? expected}; rename the file`,
    );
  }
  document.file = path.join(root, relative);
  document.mediaType = sniffed;
  document.bytes = info.size;
  if (info.pages !== undefined) document.pages = info.pages;
  return document;
}

/** Finds truth/ and baseline/ files for a document, checks each, and records the ones that are usable. */
async function attachTruthAndBaseline(
  root: string,
  walked: WalkedFiles,
  document: DatasetDocument,
  validateTruth: ((value: unknown) => string[]) | undefined,
  problems: ProblemList,
): Promise<void> {
  const id = document.id;
  // One lookup instead of building and looking up five names, for documents without such files (those five
  // took a tenth of the main thread's time on 100,000 documents without truth).
  if (!walked.sideIds.has(id)) return;
  const truthJson = `${TRUTH_DIR}/${id}.json`;
  if (walked.present.has(truthJson)) {
    const parsed = await readJsonInside(walked, truthJson, problems);
    if (parsed) {
      const errors = !isObject(parsed.value) ? ['must hold a JSON object'] : (validateTruth?.(parsed.value) ?? []);
      for (const message of errors) problems.error(truthJson, `does not match schema.json: ${message}`);
      if (errors.length === 0) document.truth.json = path.join(root, truthJson);
    }
  }
  const truthMarkdown = `${TRUTH_DIR}/${id}.md`;
  if (walked.present.has(truthMarkdown) && (await checkMarkdown(walked, truthMarkdown, problems)))
    document.truth.markdown = path.join(root, truthMarkdown);
  const regions = `${TRUTH_DIR}/${id}.regions.json`;
  if (walked.present.has(regions)) {
    const parsed = await readJsonInside(walked, regions, problems);
    if (parsed) {
      const errors = checkRegionPages(parsed.value);
      for (const message of errors.slice(0, 20)) problems.error(regions, message);
      if (errors.length > 20) problems.error(regions, `… and ${errors.length - 20} more region problems`);
      if (errors.length === 0) document.truth.regions = path.join(root, regions);
    }
  }
  const blocks = `${TRUTH_DIR}/${id}.blocks.json`;
  if (walked.present.has(blocks)) {
    const parsed = await readJsonInside(walked, blocks, problems);
    if (parsed) {
      const errors = checkTruthBlocks(parsed.value);
      for (const message of errors.slice(0, 20)) problems.error(blocks, message);
      if (errors.length > 20) problems.error(blocks, `… and ${errors.length - 20} more block problems`);
      if (errors.length === 0) document.truth.blocks = path.join(root, blocks);
    }
  }
  const baselineMarkdown = `${BASELINE_DIR}/${id}.md`;
  if (walked.present.has(baselineMarkdown) && (await checkMarkdown(walked, baselineMarkdown, problems)))
    document.baseline.markdown = path.join(root, baselineMarkdown);
  const baselineJson = `${BASELINE_DIR}/${id}.json`;
  if (walked.present.has(baselineJson)) {
    const parsed = await readJsonInside(walked, baselineJson, problems);
    if (parsed && !isObject(parsed.value))
      problems.error(baselineJson, "must hold a JSON object (the incumbent's extraction)");
    // The incumbent's output is scored as it is, like the service's: it need not conform to schema.json.
    else if (parsed) {
      document.baseline.json = path.join(root, baselineJson);
    }
  }
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function checkMarkdown(walked: WalkedFiles, relative: string, problems: ProblemList): Promise<boolean> {
  const text = await readTextInside(walked, relative, problems);
  if (text === undefined) return false;
  if (text.trim() === '') problems.warn(relative, 'is empty; it will be scored as an empty page');
  return true;
}

const TRUTH_SUFFIXES = ['.regions.json', '.blocks.json', '.json', '.md'];
const BASELINE_SUFFIXES = ['.json', '.md'];

/**
 * The ids that attachTruthAndBaseline could find a file for: `<id><suffix>` directly in truth/ or baseline/,
 * every suffix that fits counted (truth/a.regions.json may be a's regions or the truth of "a.regions").
 */
function listSideFileIds(files: readonly string[]): Set<string> {
  const ids = new Set<string>();
  for (const file of files) {
    const slash = file.indexOf('/');
    if (slash === -1) continue;
    const folder = file.slice(0, slash);
    const suffixes = folder === TRUTH_DIR ? TRUTH_SUFFIXES : folder === BASELINE_DIR ? BASELINE_SUFFIXES : undefined;
    if (!suffixes || file.includes('/', slash + 1)) continue;
    for (const suffix of suffixes) if (file.endsWith(suffix)) ids.add(file.slice(slash + 1, -suffix.length));
  }
  return ids;
}

/** Truth and baseline files that belong to no document, or whose names docbench does not read. */
function warnOrphans(files: string[], ids: Set<string>, problems: ProblemList): void {
  for (const file of files) {
    const [folder, name, ...rest] = file.split('/');
    if ((folder !== TRUTH_DIR && folder !== BASELINE_DIR) || name === undefined || name.startsWith('.')) continue;
    if (rest.length > 0) {
      problems.warn(file, `subdirectories of ${folder}/ are not read`);
      continue;
    }
    const suffixes = folder === TRUTH_DIR ? TRUTH_SUFFIXES : BASELINE_SUFFIXES;
    const suffix = suffixes.find((candidate) => name.endsWith(candidate));
    if (!suffix) {
      problems.warn(file, `not read: ${folder}/ holds <id>${suffixes.join(', <id>')}`);
      continue;
    }
    const id = name.slice(0, -suffix.length);
    if (!ids.has(id)) problems.warn(file, `no document with id "${id}"; the file is not used`);
  }
}
