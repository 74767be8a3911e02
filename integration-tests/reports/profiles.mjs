// Shared by the report tests: what the jpprof files say (docs/profile-format.md), read
// independently of jp, a frame named as the folded report names it (docs/cli.md), and a seeded
// generated profile.
import { readFileSync, writeFileSync } from 'node:fs';

// Control characters and `\` escaped as jp escapes them (`\u{1b}`, `\\`), and `;` too in
// `escapeFrame`.
const escapeWith = (pattern) => (text) => text.replace(pattern, (c) => (c === '\\' ? '\\\\' : `\\u{${c.codePointAt(0).toString(16)}}`));
export const escape = escapeWith(/[\\\u0000-\u001f\u007f-\u009f]/g);
export const escapeFrame = escapeWith(/[\\;\u0000-\u001f\u007f-\u009f]/g);

// A method frame as [name, Java parameter types, Java return type], or null for a frame that does
// not end in a method descriptor.
const PRIMITIVE = { B: 'byte', C: 'char', D: 'double', F: 'float', I: 'int', J: 'long', S: 'short', Z: 'boolean', V: 'void' };
const FIELD = '\\[*(?:[BCDFIJSZ]|L[^;]+;)';
function javaType(descriptor) {
  const dimensions = descriptor.match(/^\[*/)[0].length;
  const base = descriptor.slice(dimensions);
  return (base.startsWith('L') ? base.slice(1, -1).replaceAll('/', '.') : PRIMITIVE[base]) + '[]'.repeat(dimensions);
}
export function method(frame) {
  const match = new RegExp(`^(.*)\\(((?:${FIELD})*)\\)(V|${FIELD})$`, 's').exec(frame);
  if (!match) return null;
  const parameters = match[2].match(new RegExp(FIELD, 'g')) || [];
  return [match[1], parameters.map(javaType), javaType(match[3])];
}

// A frame as the folded report names it (docs/cli.md): the descriptor as a Java signature with
// its return type, then control characters, `;` and `\` escaped.
export function readable(frame) {
  const parts = method(frame);
  return escapeFrame(parts ? `${parts[0]}(${parts[1].join(',')}):${parts[2]}` : frame);
}

// The contexts of jpprof files (docs/profile-format.md), merged by path: path -> [calls, bytecodes].
// A path is its frame names joined by '\0', as names hold ';' and spaces.
export function contexts(paths) {
  const merged = new Map();
  for (const path of paths) {
    const frames = new Map();
    const nodes = new Map([['0', '']]);
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      const [record, id, ...rest] = line.split(' ');
      if (record === 'frame') {
        frames.set(id, rest.join(' ').replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c)));
      } else if (record === 'node') {
        const [parent, frame, calls, bytecodes] = rest;
        const up = nodes.get(parent);
        const key = up === '' ? frames.get(frame) : `${up}\0${frames.get(frame)}`;
        nodes.set(id, key);
        const [c, b] = merged.get(key) || [0, 0];
        merged.set(key, [c + Number(calls), b + Number(bytecodes)]);
      }
    }
  }
  return merged;
}

// A seeded profile of a few thousand contexts: a random walk down to depth 40 over 400 methods,
// a recursion 300 deep, contexts with no bytecodes or no calls, and one method whose name needs
// escaping both in the jpprof file and in JSON, the largest by own bytecodes.
export const ODD = 'gen.Odd.say "hi" \\ to ünïcødé → 😀\tand\nmore(Ljava/lang/String;)V';
export function generate(out) {
  let seed = 42;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const names = [ODD];
  for (let i = 1; i < 400; i++) names.push(`gen.p${i % 7}.C${i % 31}.m${i}(${'I'.repeat(i % 3)}J)V`);
  const lines = ['jp-profile 1', 'meta agent default', 'meta command gen.Main --generated'];
  names.forEach((name, i) => lines.push(`frame ${i + 1} ${name.replaceAll('\\', '\\\\').replaceAll('\n', '\\n')}`));
  const children = new Map();
  let count = 0;
  const node = (parent, frame, calls, bytecodes) => {
    const key = `${parent} ${frame}`;
    if (children.has(key)) return children.get(key);
    count += 1;
    children.set(key, count);
    lines.push(`node ${count} ${parent} ${frame} ${calls} ${bytecodes}`);
    return count;
  };
  node(0, 1, 1, 10_000_000);
  let parent = 0;
  for (let depth = 0; depth < 300; depth++) parent = node(parent, 2 + (depth % 2), 1, 1 + depth);
  const path = [0];
  while (count < 3000) {
    if (path.length > 40 || (path.length > 1 && random() < 0.4)) {
      path.length = Math.max(1, path.length - 1 - Math.floor(random() * 2));
      continue;
    }
    const calls = random() < 0.05 ? 0 : 1 + Math.floor(100 * random() ** 4);
    const bytecodes = random() < 0.05 ? 0 : calls * (1 + Math.floor(300 * random()));
    path.push(node(path[path.length - 1], 4 + Math.floor(396 * random() ** 2), calls, bytecodes));
  }
  lines.push(`end ${count}`, '');
  writeFileSync(out, lines.join('\n'));
}
