// The import-cycle check `npm run lint` runs beside ESLint: madge (a third-party cycle
// finder) over src/, for cycles between files and, from the same graph, between layers:
// the folders of src/main (db -> security -> db is a layering cycle even when no two files
// form one) and src/shared, src/preload, src/renderer, each taken whole.
const path = require('node:path');
const madge = require('madge');

/** The layer a file belongs to: `src/main/<folder>` (or `src/main` for its root files), else `src/<part>`. */
function layerOf(file) {
  const parts = file.split('/');
  return parts[1] === 'main' && parts.length > 3 ? parts.slice(0, 3).join('/') : parts.slice(0, 2).join('/');
}

/** Strongly connected components of more than one node (Tarjan), each a cycle or a knot of them. */
function knots(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let next = 0;
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node), index.get(to)));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const knot = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      knot.push(member);
    } while (member !== node);
    if (knot.length > 1) found.push(knot.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

async function main() {
  // The project root (default: this repo); tests point it at a small tree of their own.
  const root = path.resolve(process.argv[2] ?? path.join(__dirname, '..'));
  const result = await madge(path.join(root, 'src'), { baseDir: root, fileExtensions: ['ts', 'tsx'] });
  let failed = false;
  for (const cycle of result.circular()) {
    failed = true;
    console.error(`import cycle between files: ${[...cycle, cycle[0]].join(' -> ')}`);
  }
  const folders = new Map();
  const edges = new Map();
  for (const [file, imports] of Object.entries(result.obj())) {
    const from = layerOf(file);
    if (!folders.has(from)) folders.set(from, new Set());
    for (const imported of imports) {
      const to = layerOf(imported);
      if (to === from) continue;
      folders.get(from).add(to);
      const key = `${from} -> ${to}`;
      if (!edges.has(key)) edges.set(key, `${file} -> ${imported}`);
    }
  }
  for (const knot of knots(folders)) {
    failed = true;
    console.error(`import cycle between layers: ${knot.join(', ')}`);
    for (const from of knot) {
      for (const to of folders.get(from)) if (knot.includes(to)) console.error(`  ${edges.get(`${from} -> ${to}`)}`);
    }
  }
  if (failed) process.exit(1);
  console.log(`check-cycles: ${Object.keys(result.obj()).length} files, ${folders.size} layers, no import cycle`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
