// `jp report --format pprof` read by pprof itself (`go tool pprof`, the Go toolchain's copy of
// github.com/google/pprof): `-top` lists the hottest method first with its exact count and the
// profile's total, `-raw` lists both sample types and gives back every context's own values with
// its whole stack, `-traces` shows the deepest stack whole, on the small test profiles, a profile
// of a test run and a generated one of a few thousand contexts. The expectations come from the
// jpprof files themselves (profiles.mjs), not from jp.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { check, finish } from './browser.mjs';
import { contexts, escape, escapeFrame, generate, method, ODD } from './profiles.mjs';

const { JP, JP_PROFILES, JP_WORK } = process.env;
const GO = process.env.GO || 'go';

function report(profiles, out, ...flags) {
  execFileSync(JP, ['report', ...profiles, '--format', 'pprof', '--out', out, ...flags]);
  return out;
}

function pprof(file, ...flags) {
  return execFileSync(GO, ['tool', 'pprof', ...flags, file], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    env: { ...process.env, PPROF_TMPDIR: JP_WORK },
  });
}

// A function as the pprof report names it (docs/cli.md): a method as the folded report names it,
// without its return type; a test frame with control characters and `\` escaped. (The profiles
// here have no two methods that differ only in their return types.)
function functionName(frame) {
  if (frame.startsWith('[test] ')) return escape(frame);
  const parts = method(frame);
  return escapeFrame(parts ? `${parts[0]}(${parts[1].join(',')})` : frame);
}

// Each method's own value summed over its contexts, in `metric` (0 calls, 1 bytecodes), by
// function name; and the total.
function selfByFunction(expected, metric) {
  const self = new Map();
  let total = 0;
  for (const [path, values] of expected) {
    const name = functionName(path.split('\0').pop());
    self.set(name, (self.get(name) || 0) + values[metric]);
    total += values[metric];
  }
  return { self, total };
}

// `-top`: the total, and the rows as [flat, name].
function top(file, sampleIndex) {
  const text = pprof(file, '-top', `-sample_index=${sampleIndex}`, '-nodecount=1000000');
  const total = Number(/ of (\d+) total/.exec(text)[1]);
  const rows = [];
  for (const line of text.split('\n')) {
    const row = /^\s*(\d+)\s+\S+%\s+\S+%\s+\d+\s+\S+%\s+(.*)$/.exec(line);
    if (row) rows.push([Number(row[1]), row[2]]);
  }
  return { text, total, rows };
}

// `-top` against the jpprof files: the first row is the method with the most own `metric`
// (computed from the files), with its exact count, and the total is the profiles'.
function hottestFirst(file, profiles, sampleIndex, metric) {
  const { self, total } = selfByFunction(contexts(profiles), metric);
  const [name, value] = [...self].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
  const shown = top(file, sampleIndex);
  if (shown.total !== total) throw new Error(`total ${shown.total}, expected ${total}\n${shown.text}`);
  const [flat, first] = shown.rows[0];
  if (first !== name || flat !== value) throw new Error(`first row ${first} ${flat}, expected ${name} ${value}\n${shown.text}`);
  return `${first} ${flat} of ${total} ${sampleIndex}`;
}

// `-raw`: the sample types line and each sample as [stack of function names outermost first
// joined by '\0', [calls, bytecodes]].
function raw(file) {
  const lines = pprof(file, '-raw').split('\n');
  const names = new Map();
  const start = lines.indexOf('Locations');
  for (const line of lines.slice(start + 1, lines.indexOf('Mappings'))) {
    // `id: 0x0 M=1 name :line:column s=0(system name)` (pprof before 2023: no column); a system
    // name may run over lines.
    const location = /^\s*(\d+): 0x0 M=1 (.*?) :0(?::0)? s=0/.exec(line);
    if (location) names.set(location[1], location[2]);
  }
  const samplesAt = lines.indexOf('Samples:');
  const samples = lines.slice(samplesAt + 2, start).map((line) => {
    const [values, ids] = line.split(':');
    const stack = ids.trim().split(' ').map((id) => names.get(id)).reverse();
    return [stack.join('\0'), values.trim().split(/\s+/).map(Number)];
  });
  return { types: lines[samplesAt + 1], samples };
}

// The sample types line of `-raw` when `metric` is shown first.
const TYPES = {
  bytecodes: 'calls/count bytecodes/count[dflt]',
  calls: 'calls/count[dflt] bytecodes/count',
};

// `-raw` against the jpprof files: both sample types, `metric`'s the default, and one sample per
// context with a value of its own, with its stack and both own values.
function sameSamples(file, profiles, metric = 'bytecodes') {
  const expected = new Map();
  for (const [path, values] of contexts(profiles)) {
    if (values[0] || values[1]) expected.set(path.split('\0').map(functionName).join('\0'), values);
  }
  const { types, samples } = raw(file);
  if (types !== TYPES[metric]) throw new Error(`sample types ${types}`);
  if (samples.length !== expected.size) throw new Error(`${samples.length} samples, expected ${expected.size}`);
  for (const [stack, values] of samples) {
    const wanted = expected.get(stack);
    if (!wanted || wanted.join() !== values.join()) {
      throw new Error(`${stack.replaceAll('\0', ';')}: ${values}, expected ${wanted}`);
    }
  }
  return `${samples.length} samples, types ${types}`;
}

const small = [join(JP_PROFILES, 'a.jpprof'), join(JP_PROFILES, 'b.jpprof')];
const tests = [join(JP_PROFILES, 'diff_base.jpprof')];
const fig5 = [join(JP_PROFILES, 'fig5.jpprof')];
const generated = join(JP_WORK, 'generated.jpprof');
generate(generated);

await check('a.jpprof + b.jpprof: go tool pprof -top lists the hottest method first with its exact bytecodes', () => {
  const file = report(small, join(JP_WORK, 'a.pb.gz'));
  return `${hottestFirst(file, small, 'bytecodes', 1)}; ${hottestFirst(file, small, 'calls', 0)}`;
});

await check('a.jpprof + b.jpprof: go tool pprof -raw lists both sample types and every context', () =>
  sameSamples(join(JP_WORK, 'a.pb.gz'), small));

await check("fig5.jpprof (ProfBuilder's Fig. 5): pprof counts its 611 calls", () => {
  const file = report(fig5, join(JP_WORK, 'fig5.pb.gz'), '--metric', 'calls');
  const { total } = top(file, 'calls');
  if (total !== 611) throw new Error(`total ${total}`);
  return `${hottestFirst(file, fig5, 'calls', 0)}; ${sameSamples(file, fig5, 'calls')}`;
});

await check('a profile of a test run: the tests stay frames, at the bottom of their stacks', () => {
  const file = report(tests, join(JP_WORK, 'tests.pb.gz'));
  const detail = sameSamples(file, tests);
  const traces = pprof(file, '-traces', '-sample_index=bytecodes');
  if (!/\n\s+\[test\] demo\.ParserTest#largeFile\(\)\n-+\+/.test(traces)) throw new Error(`no test at a stack's bottom:\n${traces}`);
  return `${detail}; ${hottestFirst(file, tests, 'bytecodes', 1)}`;
});

await check('a generated profile of 3000 contexts: top entry, every sample, the escaped name', () => {
  const file = report([generated], join(JP_WORK, 'generated.pb.gz'));
  const detail = sameSamples(file, [generated]);
  const first = hottestFirst(file, [generated], 'bytecodes', 1);
  if (!first.startsWith(functionName(ODD))) throw new Error(`first ${first}`);
  return `${detail}; ${first.slice(0, 40)}...`;
});

await check('go tool pprof -traces shows the deepest stack whole, with its own value', () => {
  const file = join(JP_WORK, 'generated.pb.gz');
  const traces = pprof(file, '-traces', '-sample_index=bytecodes').split(/\n-+\+-+\n/);
  const deepest = traces.map((trace) => trace.split('\n').filter((line) => line.trim())).sort((a, b) => b.length - a.length)[0];
  const paths = [...contexts([generated])];
  const [path, values] = paths.sort((a, b) => b[0].split('\0').length - a[0].split('\0').length)[0];
  const frames = path.split('\0').map(functionName).reverse();
  const value = Number(deepest[0].trim().split(/\s+/)[0]);
  const shown = deepest.map((line, i) => (i === 0 ? line.trim().replace(/^\d+\s+/, '') : line.trim()));
  if (shown.join('\n') !== frames.join('\n') || value !== values[1]) {
    throw new Error(`deepest trace (${shown.length} frames, ${value}) is not the deepest context (${frames.length} frames, ${values[1]})`);
  }
  return `${frames.length} frames, ${value} bytecodes`;
});

await check('--metric calls --threshold --max-depth: calls shown first, and only what is kept', () => {
  const file = report([generated], join(JP_WORK, 'pruned.pb.gz'), '--metric', 'calls', '--threshold', '0.5', '--max-depth', '8');
  const { types, samples } = raw(file);
  if (types !== TYPES.calls) throw new Error(`sample types ${types}`);
  const deepest = Math.max(...samples.map(([stack]) => stack.split('\0').length));
  if (deepest > 8 || samples.length === 0) throw new Error(`${samples.length} samples, ${deepest} deep`);
  const all = raw(join(JP_WORK, 'generated.pb.gz')).samples.length;
  if (samples.length >= all) throw new Error(`${samples.length} samples kept of ${all}`);
  return `${samples.length} samples kept of ${all}, at most ${deepest} deep`;
});

await check('thread groups: each sample is labelled with its group, -tags lists them and -tagfocus shows one', () => {
  const file = report([join(JP_PROFILES, 'thread_groups.jpprof')], join(JP_WORK, 'groups.pb.gz'));
  const tags = pprof(file, '-tags');
  for (const line of ['23720 (79.27%): pool-#-thread-#', '5972 (19.96%): main', '230 ( 0.77%): loader-#']) {
    if (!tags.includes(line)) throw new Error(`-tags lacks "${line}":\n${tags}`);
  }
  const main = pprof(file, '-top', '-tagfocus', 'thread group=main');
  if (!/Showing nodes accounting for 5972, 19\.96% of 29922 total/.test(main) || !/\n\s+5230 .* demo\.Main\.work\(int\)\n/.test(main)) {
    throw new Error(main);
  }
  return 'pool-#-thread-# 23,720, main 5,972 (work 5,230 of it), loader-# 230 bytecodes';
});

finish();
