/**
 * Maximum-cardinality matching in a general graph (Edmonds' blossom algorithm), grown from
 * a starting matching. Swiss pairing uses it as the safety net under its greedy pass: if a
 * round can be paired without rematches, this finds such a pairing, in polynomial time,
 * changing the greedy pairs only along augmenting paths.
 *
 * `allowed` is an n×n 0/1 adjacency matrix (row-major); `mate[v]` is v's partner or -1.
 * Free vertices are tried in the order given, so callers pass the lowest-ranked first.
 */
export function augmentMatching(n: number, allowed: Uint8Array, mate: Int32Array, order: readonly number[]): Int32Array {
  const match = Int32Array.from(mate);
  const parent = new Int32Array(n);
  const base = new Int32Array(n);
  const used = new Uint8Array(n);
  const inBlossom = new Uint8Array(n);
  const seen = new Uint8Array(n);
  const queue = new Int32Array(n);

  const lca = (a0: number, b0: number): number => {
    seen.fill(0);
    let a = a0;
    for (;;) {
      a = base[a]!;
      seen[a] = 1;
      if (match[a] === -1) break;
      a = parent[match[a]!]!;
    }
    let b = b0;
    for (;;) {
      b = base[b]!;
      if (seen[b]) return b;
      b = parent[match[b]!]!;
    }
  };
  const markPath = (v0: number, b: number, child0: number) => {
    let v = v0;
    let child = child0;
    while (base[v] !== b) {
      inBlossom[base[v]!] = 1;
      inBlossom[base[match[v]!]!] = 1;
      parent[v] = child;
      child = match[v]!;
      v = parent[match[v]!]!;
    }
  };
  const findPath = (root: number): number => {
    used.fill(0);
    parent.fill(-1);
    for (let i = 0; i < n; i++) base[i] = i;
    used[root] = 1;
    let head = 0;
    let tail = 0;
    queue[tail++] = root;
    while (head < tail) {
      const v = queue[head++]!;
      const row = v * n;
      for (let to = 0; to < n; to++) {
        if (!allowed[row + to] || base[v] === base[to] || match[v] === to) continue;
        if (to === root || (match[to] !== -1 && parent[match[to]!] !== -1)) {
          const cur = lca(v, to);
          inBlossom.fill(0);
          markPath(v, cur, to);
          markPath(to, cur, v);
          for (let i = 0; i < n; i++) {
            if (inBlossom[base[i]!]) {
              base[i] = cur;
              if (!used[i]) {
                used[i] = 1;
                queue[tail++] = i;
              }
            }
          }
        } else if (parent[to] === -1) {
          parent[to] = v;
          if (match[to] === -1) return to;
          used[match[to]!] = 1;
          queue[tail++] = match[to]!;
        }
      }
    }
    return -1;
  };

  for (const root of order) {
    if (match[root] !== -1) continue;
    let v = findPath(root);
    while (v !== -1) {
      const pv = parent[v]!;
      const ppv = match[pv]!;
      match[v] = pv;
      match[pv] = v;
      v = ppv;
    }
  }
  return match;
}
