/**
 * A strict parser of the Prometheus text exposition format (0.0.4), for tests: every sample belongs to a family
 * declared by `# TYPE` before it, names and label names follow the format's grammar, label values use only its three
 * escapes, values are floats as Go's `ParseFloat` reads them (`+Inf`, `-Inf`, `NaN` in any case, as prom-client
 * writes `Nan`), a histogram's buckets are cumulative and end with
 * `le="+Inf"` equal to its `_count`. Anything else throws, naming the line.
 */

/** One sample line. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A metric family: its type, help and samples (a histogram's `_bucket`, `_sum` and `_count` included). */
export interface Family {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Record<string, readonly string[]> = {
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['_sum', '_count', ''],
};

/** A value as Go's `ParseFloat` reads it (Prometheus's own parser): `NaN` and `Inf` in any case. */
function parseValue(text: string, line: number): number {
  const lower = text.toLowerCase();
  if (lower === '+inf' || lower === 'inf') return Number.POSITIVE_INFINITY;
  if (lower === '-inf') return Number.NEGATIVE_INFINITY;
  if (lower === 'nan') return Number.NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`line ${line}: bad value '${text}'`);
  return Number(text);
}

/** Reads `{a="x",b="y"}` from `text` at `start` (the `{`); returns the labels and the index after `}`. */
function parseLabels(text: string, start: number, line: number): [Record<string, string>, number] {
  const labels: Record<string, string> = {};
  let index = start + 1;
  while (text[index] !== '}') {
    const nameEnd = text.indexOf('=', index);
    if (nameEnd < 0) throw new Error(`line ${line}: label without '='`);
    const name = text.slice(index, nameEnd);
    if (!LABEL_NAME.test(name)) throw new Error(`line ${line}: bad label name '${name}'`);
    if (name in labels) throw new Error(`line ${line}: label '${name}' twice`);
    if (text[nameEnd + 1] !== '"') throw new Error(`line ${line}: label value not quoted`);
    let value = '';
    index = nameEnd + 2;
    for (;;) {
      const character = text[index];
      if (character === undefined) throw new Error(`line ${line}: unterminated label value`);
      if (character === '"') break;
      if (character === '\n') throw new Error(`line ${line}: raw newline in a label value`);
      if (character === '\\') {
        const escaped = text[index + 1];
        if (escaped === 'n') value += '\n';
        else if (escaped === '\\' || escaped === '"') value += escaped;
        else throw new Error(`line ${line}: bad escape '\\${escaped}'`);
        index += 2;
        continue;
      }
      value += character;
      index++;
    }
    labels[name] = value;
    index++;
    if (text[index] === ',') index++;
    else if (text[index] !== '}') throw new Error(`line ${line}: expected ',' or '}' after a label`);
  }
  return [labels, index + 1];
}

function familyOf(name: string, families: Map<string, Family>): Family | undefined {
  const exact = families.get(name);
  if (exact !== undefined && exact.type !== 'histogram') return exact;
  for (const family of families.values())
    for (const suffix of SUFFIXES[family.type] ?? [])
      if (suffix !== '' && name === `${family.name}${suffix}`) return family;
  return exact;
}

function checkHistogram(family: Family): void {
  const series = new Map<string, Sample[]>();
  for (const sample of family.samples) {
    const { le, ...rest } = sample.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    if (!series.has(key)) series.set(key, []);
    series.get(key)?.push(sample);
  }
  for (const [key, samples] of series) {
    const buckets = samples.filter((sample) => sample.name.endsWith('_bucket'));
    const count = samples.find((sample) => sample.name.endsWith('_count'));
    if (!samples.some((sample) => sample.name.endsWith('_sum')) || count === undefined)
      throw new Error(`${family.name} ${key}: no _sum or _count`);
    let previous = 0;
    let previousBound = Number.NEGATIVE_INFINITY;
    for (const bucket of buckets) {
      const bound = parseValue(bucket.labels.le ?? '', 0);
      if (bound <= previousBound || bucket.value < previous)
        throw new Error(`${family.name} ${key}: buckets not cumulative`);
      previous = bucket.value;
      previousBound = bound;
    }
    if (previousBound !== Number.POSITIVE_INFINITY || previous !== count.value)
      throw new Error(`${family.name} ${key}: the +Inf bucket is not the count`);
  }
}

/** Parses an exposition text into its families, by name; throws on anything the format does not allow. */
export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  if (!text.endsWith('\n')) throw new Error('the exposition must end with a newline');
  for (const [index, raw] of text.split('\n').entries()) {
    const line = index + 1;
    if (raw.trim() === '') continue;
    if (raw.startsWith('#')) {
      const [, keyword, name = '', ...rest] = raw.split(' ');
      if (keyword !== 'HELP' && keyword !== 'TYPE') continue;
      if (!NAME.test(name)) throw new Error(`line ${line}: bad metric name '${name}'`);
      const family = families.get(name) ?? { name, type: 'untyped', help: '', samples: [] };
      if (family.samples.length > 0) throw new Error(`line ${line}: ${keyword} of ${name} after its samples`);
      if (keyword === 'TYPE') {
        const type = rest.join(' ');
        if (!TYPES.has(type)) throw new Error(`line ${line}: bad type '${type}'`);
        family.type = type as Family['type'];
      } else family.help = rest.join(' ');
      families.set(name, family);
      continue;
    }
    const nameEnd = raw.search(/[{ ]/);
    if (nameEnd <= 0) throw new Error(`line ${line}: no sample name`);
    const name = raw.slice(0, nameEnd);
    if (!NAME.test(name)) throw new Error(`line ${line}: bad metric name '${name}'`);
    const [labels, after] = raw[nameEnd] === '{' ? parseLabels(raw, nameEnd, line) : [{}, nameEnd];
    const fields = raw.slice(after).trim().split(/\s+/);
    if (raw[after] !== ' ' || fields.length < 1 || fields.length > 2) throw new Error(`line ${line}: bad sample`);
    if (fields[1] !== undefined && !/^-?\d+$/.test(fields[1])) throw new Error(`line ${line}: bad timestamp`);
    const family = familyOf(name, families);
    if (family === undefined) throw new Error(`line ${line}: sample of ${name} without a TYPE`);
    if (family.type === 'histogram' && name.endsWith('_bucket') && labels.le === undefined)
      throw new Error(`line ${line}: a bucket without le`);
    family.samples.push({ name, labels, value: parseValue(fields[0] ?? '', line) });
  }
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

/** The value of a family's sample with exactly these labels (and any others), or undefined. */
export function sampleValue(
  families: Map<string, Family>,
  name: string,
  labels: Record<string, string> = {},
  family = name.replace(/_(bucket|sum|count)$/, ''),
): number | undefined {
  const samples = families.get(family)?.samples ?? families.get(name)?.samples ?? [];
  return samples.find(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )?.value;
}
