// A small OCSF schema resolver for tests: reads the schema's own JSON files (the part of OCSF
// 1.9.0-dev the export uses, in test/fixtures/ocsf-schema; its README says where it came from) and checks an event against its class, at every
// nesting level. A class is base_event + its `extends` chain + the profiles it `$include`s and
// the event applies (metadata.profiles); an object is its `extends` chain (e.g. product →
// _entity → object) + its `$include`s;
// dictionary.json gives each attribute's type (an object's name, or a scalar `*_t`) and whether
// it is an array. Checked: required attributes present, no attribute the schema does not
// define, scalar types, enum values, and `at_least_one` constraints.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface AttributeSpec {
  requirement?: string;
  type?: string;
  enum?: Record<string, unknown>;
}

interface SchemaFile {
  name: string;
  meta?: string;
  extends?: string;
  category?: string;
  uid?: number;
  attributes: Record<string, AttributeSpec | string[]>;
  constraints?: { at_least_one?: string[] };
}

interface Resolved {
  attributes: Map<string, AttributeSpec>;
  atLeastOne: string[][];
}

interface DictionaryEntry {
  type: string;
  is_array?: boolean;
  enum?: Record<string, unknown>;
}

/** Set by the schema's compiler from the class itself, not listed in any enum: checked against the class instead. */
const DERIVED = new Set(['class_uid', 'category_uid', 'type_uid']);

/** The schema folder, inside the repository: a clone needs nothing beside it. */
export const OCSF_SCHEMA_DIR = path.resolve(import.meta.dirname, '../fixtures/ocsf-schema');

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

function listJson(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listJson(full) : entry.name.endsWith('.json') ? [full] : [];
  });
}

export class OcsfSchema {
  private readonly dictionary: Record<string, DictionaryEntry>;
  private readonly scalarTypes: Record<string, { type?: string }>;
  private readonly events = new Map<string, SchemaFile>();
  private readonly objects = new Map<string, SchemaFile>();
  private readonly classes = new Map<number, string>();
  readonly version: string;

  constructor(readonly root: string = OCSF_SCHEMA_DIR) {
    const dictionary = readJson<{ attributes: Record<string, DictionaryEntry>; types: { attributes: Record<string, { type?: string }> } }>(path.join(root, 'dictionary.json'));
    this.dictionary = dictionary.attributes;
    this.scalarTypes = dictionary.types.attributes;
    this.version = readJson<{ version: string }>(path.join(root, 'version.json')).version;
    for (const file of listJson(path.join(root, 'objects'))) { const object = readJson<SchemaFile>(file); this.objects.set(object.name, object); }
    for (const file of listJson(path.join(root, 'events'))) { const event = readJson<SchemaFile>(file); this.events.set(event.name, event); }
    const categories = readJson<{ attributes: Record<string, { uid: number }> }>(path.join(root, 'categories.json')).attributes;
    for (const event of this.events.values()) {
      const category = this.chain(event, this.events).reverse().find((file) => file.category !== undefined)?.category; // the nearest one: base_event says "other"
      if (event.uid !== undefined && category && categories[category]) this.classes.set(categories[category].uid * 1000 + event.uid, event.name);
    }
  }

  /** The file and its ancestors, root first. */
  private chain(file: SchemaFile, from: Map<string, SchemaFile>): SchemaFile[] {
    const parent = file.extends === undefined ? undefined : from.get(file.extends);
    if (file.extends !== undefined && !parent) throw new Error(`${file.name} extends ${file.extends}, which the schema does not define`);
    return parent ? [...this.chain(parent, from), file] : [file];
  }

  /**
   * Attributes of a chain of files: parents first, each file's `$include`s before its own (own
   * wins). An included profile counts only when the event applies it (metadata.profiles).
   */
  private resolve(files: SchemaFile[], profiles: ReadonlySet<string>): Resolved {
    const attributes = new Map<string, AttributeSpec>();
    const atLeastOne: string[][] = [];
    const merge = (from: SchemaFile['attributes']) => {
      for (const [name, spec] of Object.entries(from)) {
        if (name === '$include') {
          for (const include of spec as string[]) {
            const included = readJson<SchemaFile>(path.join(this.root, include));
            if (included.meta !== 'profile' || profiles.has(included.name)) merge(included.attributes);
          }
        }
        else {
          // A refinement keeps what it does not restate; enum values add up (a class's activities join base_event's 0 and 99).
          const before = attributes.get(name);
          const merged: AttributeSpec = { ...before, ...(spec as AttributeSpec) };
          if (before?.enum && merged.enum) merged.enum = { ...before.enum, ...merged.enum };
          attributes.set(name, merged);
        }
      }
    };
    for (const file of files) {
      merge(file.attributes);
      // A refinement's constraint replaces its parent's (network_endpoint's list adds svc_name to endpoint's).
      if (file.constraints?.at_least_one) atLeastOne.splice(0, atLeastOne.length, file.constraints.at_least_one);
    }
    return { attributes, atLeastOne };
  }

  className(classUid: number): string | undefined {
    return this.classes.get(classUid);
  }

  /** Every problem of one event against its class, each naming its path ([] when it conforms). */
  check(event: Record<string, unknown>): string[] {
    const name = typeof event.class_uid === 'number' ? this.classes.get(event.class_uid) : undefined;
    if (!name) return [`class_uid ${String(event.class_uid)} is not a class of OCSF ${this.version}`];
    const declared = (event.metadata as { profiles?: unknown } | undefined)?.profiles;
    const profiles = new Set(Array.isArray(declared) ? declared.filter((item): item is string => typeof item === 'string') : []);
    const problems = this.checkAgainst(event, this.resolve(this.chain(this.events.get(name)!, this.events), profiles), name, profiles);
    const classUid = event.class_uid as number;
    if (event.category_uid !== Math.floor(classUid / 1000)) problems.push(`${name}.category_uid ${String(event.category_uid)} is not the class's category`);
    if (event.type_uid !== classUid * 100 + Number(event.activity_id)) problems.push(`${name}.type_uid ${String(event.type_uid)} is not class_uid * 100 + activity_id`);
    return problems;
  }

  private checkAgainst(value: Record<string, unknown>, resolved: Resolved, where: string, profiles: ReadonlySet<string>): string[] {
    const problems: string[] = [];
    for (const [name, spec] of resolved.attributes) {
      if (spec.requirement === 'required' && value[name] === undefined) problems.push(`${where}.${name} is required but missing`);
    }
    for (const group of resolved.atLeastOne) {
      if (!group.some((name) => value[name] !== undefined)) problems.push(`${where}: needs at least one of ${group.join(', ')}`);
    }
    for (const [name, item] of Object.entries(value)) {
      if (item === undefined) continue; // JSON has no undefined: the attribute is absent
      const spec = resolved.attributes.get(name);
      if (!spec) problems.push(`${where}.${name} is not an attribute the schema defines here`);
      else problems.push(...this.checkValue(item, name, spec, `${where}.${name}`, profiles));
    }
    return problems;
  }

  private checkValue(item: unknown, name: string, spec: AttributeSpec, where: string, profiles: ReadonlySet<string>): string[] {
    const entry = this.dictionary[name];
    if (!entry) return [`${where}: ${name} is not in dictionary.json`];
    const type = spec.type ?? entry.type;
    // The dictionary's enum values (0 Unknown, 99 Other…) hold wherever the attribute is used.
    const values = DERIVED.has(name) || (!spec.enum && !entry.enum) ? undefined : { ...entry.enum, ...spec.enum };
    if (entry.is_array) {
      if (!Array.isArray(item)) return [`${where} must be an array of ${type}`];
      return item.flatMap((element, index) => this.checkSingle(element, type, values, `${where}[${index}]`, profiles));
    }
    return this.checkSingle(item, type, values, where, profiles);
  }

  private checkSingle(item: unknown, type: string, values: Record<string, unknown> | undefined, where: string, profiles: ReadonlySet<string>): string[] {
    if (values && !Object.hasOwn(values, String(item))) return [`${where}: ${String(item)} is not one of its enum values`];
    if (type.endsWith('_t')) return this.checkScalar(item, type, where);
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return [`${where} must be a ${type} object`];
    if (type === 'object') return []; // the generic object (e.g. unmapped): free-form by definition
    const object = this.objects.get(type);
    if (!object) return [`${where}: object type ${type} is not in the schema`];
    return this.checkAgainst(item as Record<string, unknown>, this.resolve(this.chain(object, this.objects), profiles), where, profiles);
  }

  private checkScalar(item: unknown, type: string, where: string): string[] {
    let base = type;
    while (this.scalarTypes[base]?.type) base = this.scalarTypes[base]!.type!;
    const ok = base === 'string_t' ? typeof item === 'string'
      : base === 'integer_t' || base === 'long_t' ? Number.isSafeInteger(item)
        : base === 'float_t' ? typeof item === 'number'
          : base === 'boolean_t' ? typeof item === 'boolean'
            : base === 'json_t';
    return ok ? [] : [`${where}: ${JSON.stringify(item)} is not a ${type}`];
  }
}
