"""Checks the chain of totals of a program's exact profile across socmon report's views (issue 27):
per-line sums = per-function self sums (children's self and by-symbol's rows) = the whole-program
counters, for every event; the root's inclusive = the total; no inclusive value above the total;
the folded stacks' values sum to their event's total; the HOT line (callgraph.c) has the most
cycles, exactly the sum of its instructions' counts in --annotate.
usage: profile_check.py DIR   (DIR holds the JSON/text files profile_views.test.sh wrote)"""
import json
import os
import sys

d = sys.argv[1]
fails = []


def load(name):
    with open(os.path.join(d, name)) as f:
        return json.load(f)


def check(cond, what):
    if not cond:
        fails.append(what)


for prog in sorted({n.split('.')[0] for n in os.listdir(d) if n.endswith('.bysym.json')}):
    bysym = load(prog + '.bysym.json')
    children = load(prog + '.children.json')
    lines = load(prog + '.lines.json')
    tree = load(prog + '.tree.json')
    whole = bysym['whole_program']
    events = [k for k in children['root'] if k in whole]
    check(len(events) >= 8, f'{prog}: the views share at least 8 events ({events})')
    check(children['totals_match'] and tree['totals_match'], f'{prog}: totals_match')
    for e in events:
        total = whole[e]
        # root's inclusive = the whole program's counter
        check(children['root'][e] == total, f'{prog}: root {e} {children["root"][e]} != total {total}')
        # per function: children's self = by-symbol's row = the sum of its lines
        sym = {r['function']: r[e] for r in bysym['functions']}
        selfs = {r['function']: r[e] for r in children['functions']}
        per_line = {}
        for r in lines['lines']:
            per_line[r['function']] = per_line.get(r['function'], 0) + r[e]
        for fn, v in selfs.items():
            check(sym.get(fn, 0) == v, f'{prog}: {fn} {e}: by-symbol {sym.get(fn)} != children self {v}')
            check(per_line.get(fn, 0) == v, f'{prog}: {fn} {e}: lines {per_line.get(fn)} != self {v}')
        for fn, v in sym.items():
            check(selfs.get(fn, 0) == v, f'{prog}: {fn} {e}: by-symbol {v} but children self {selfs.get(fn)}')
        check(sum(per_line.values()) == total, f'{prog}: lines sum {e} {sum(per_line.values())} != {total}')
        # inclusive never above the total (recursion counted once), never below self, unless the
        # program wrote the counter (a negative count to the writer: sm_zero_counters)
        if all(r[e] >= 0 for r in children['functions']):
            for r in children['functions']:
                check(r[e] <= r[e + '_children'] <= total, f'{prog}: {r["function"]} {e}: self <= children <= total')
        negative = any(r[e] < 0 for r in children['functions'])
        if prog == 'callgraph':
            check(not negative, f'callgraph: {e}: no function counts less than nothing')
    # folded stacks sum to their event's total
    for e in ('cycles', 'instret'):
        with open(os.path.join(d, f'{prog}.folded.{e}')) as f:
            s = 0
            for line in f:
                stack, v = line.rsplit(' ', 1)
                # a frame is a function's name, or "[trap] name" for one a trap or interrupt entered
                frames = [f[len('[trap] '):] if f.startswith('[trap] ') else f for f in stack.split(';')]
                check(stack and all(f and ' ' not in f for f in frames), f'{prog}: folded line {line!r}')
                s += int(v)
        check(s == whole[e], f'{prog}: folded {e} sums to {s}, total {whole[e]}')
    # edges: calls add up to the callee's calls; one edge per (caller, callee, trap); a trap's edge
    # is a trap's frame in the folded stacks too
    calls_in = {}
    keys = [(r['caller'], r['callee'], r['trap']) for r in tree['edges']]
    check(len(keys) == len(set(keys)), f'{prog}: an edge twice')
    with open(os.path.join(d, f'{prog}.folded.cycles')) as f:
        folded = f.read()
    for r in tree['edges']:
        if r['trap'] and r['cycles']:
            check(f"{r['caller']};[trap] {r['callee']}" in folded, f'{prog}: {r["caller"]} -> [trap] {r["callee"]} not folded')
        calls_in[r['callee']] = calls_in.get(r['callee'], 0) + r['calls']
        check(r['cycles'] <= whole['cycles'], f'{prog}: edge {r["caller"]}->{r["callee"]} above the total')
    for r in children['functions']:
        if r['function'] in calls_in:
            check(calls_in[r['function']] <= r['calls'], f'{prog}: {r["function"]} edges {calls_in[r["function"]]} calls')

# recursion counted once: fib's inclusive is that of its one call from main (the outermost frame),
# not the sum over its nested frames; and the fib -> fib edge holds less than that
if os.path.exists(os.path.join(d, 'callgraph.children.json')):
    ch = {r['function']: r for r in load('callgraph.children.json')['functions']}
    edges = {(r['caller'], r['callee']): r for r in load('callgraph.tree.json')['edges']}
    fib = ch['fib']
    check(fib['cycles_children'] == edges[('main', 'fib')]['cycles'],
          f'callgraph: fib inclusive {fib["cycles_children"]} != its call from main {edges[("main", "fib")]["cycles"]}')
    check(edges[('fib', 'fib')]['cycles'] < fib['cycles_children'] and fib['calls'] > 100,
          'callgraph: the fib -> fib edge counted once, below fib inclusive')
    check(ch['is_even']['cycles_children'] <= ch['main']['cycles_children'], 'callgraph: mutual recursion once')

# the exact line: callgraph's HOT line has the most cycles, the sum of its instructions' own
if os.path.exists(os.path.join(d, 'callgraph.lines.json')):
    hot_line = int(open(os.path.join(d, 'hot_line')).read())
    rows = load('callgraph.lines.json')['lines']
    top = max(rows, key=lambda r: r['cycles'])
    check(top['line'] == hot_line and top['function'] == 'hot' and top['file'].endswith('callgraph.c'),
          f'callgraph: the line of most cycles is {top["file"]}:{top["line"]}, not callgraph.c:{hot_line}')
    ann = load('callgraph.annotate.json')
    on_line = sum(r['cycles'] for r in ann['instructions'] if r['line'] == hot_line and r['file'].endswith('callgraph.c'))
    check(on_line == top['cycles'], f'callgraph: annotate gives line {hot_line} {on_line} cycles, by-line {top["cycles"]}')
    hottest = [r for r in ann['instructions'] if r['hottest']]
    check(len(hottest) == 1 and hottest[0]['cycles'] == max(r['cycles'] for r in ann['instructions']),
          'callgraph: one instruction marked hottest, the one of most cycles')
    check(all(r['text'] for r in ann['instructions']), 'callgraph: every instruction has its text')

for f in fails:
    print('FAIL:', f)
print(f'profile_check: {len(fails)} failed')
sys.exit(1 if fails else 0)
